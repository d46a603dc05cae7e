import { Eye, EyeOff } from 'lucide-react';
import {
  type InputHTMLAttributes,
  type KeyboardEvent,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useState,
} from 'react';

type FieldProps = {
  id: string;
  label: ReactNode;
  error?: string | null;
  hint?: ReactNode;
  optional?: boolean;
  className?: string;
  /** Keep the hint under the error: when the spec's message does not say what is wrong. */
  hintOnError?: boolean;
  children: ReactNode;
};

/** Label above, control, then the error in the spec's words (or a hint when there is none). */
export function Field({ id, label, error, hint, optional, className, hintOnError, children }: FieldProps) {
  return (
    <div className={['field', error && 'has-error', className].filter(Boolean).join(' ')} data-field={id}>
      <label className="field-label" htmlFor={id}>
        {label}
        {optional && <span className="field-optional">Optional</span>}
      </label>
      {children}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
      {(!error || hintOnError) && hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

function describedBy(id: string, error?: string | null, hint?: ReactNode, hintOnError?: boolean) {
  if (error) return hint && hintOnError ? `${id}-error ${id}-hint` : `${id}-error`;
  return hint ? `${id}-hint` : undefined;
}

/** What every control of a field carries: its id and name, value, change and the message it is described by. */
function controlProps(
  id: string,
  value: string,
  onValueChange: (value: string) => void,
  error?: string | null,
  hint?: ReactNode,
  hintOnError?: boolean,
) {
  return {
    id,
    name: id,
    value,
    onChange: (e: { target: { value: string } }) => onValueChange(e.target.value),
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(id, error, hint, hintOnError),
  };
}

type Common = {
  id: string;
  label: ReactNode;
  error?: string | null;
  hint?: ReactNode;
  optional?: boolean;
  hintOnError?: boolean;
};

/** What every field component takes beside its control's own attributes. */
type Controlled = Common & {
  value: string;
  onValueChange: (value: string) => void;
  fieldClassName?: string;
};

/** A field component's props split: those of its `Field`, those of its control, and the control's own rest. */
function fieldParts<P extends Controlled>(props: P) {
  const { id, label, error, hint, optional, hintOnError, value, onValueChange, fieldClassName, ...rest } =
    props;
  return {
    field: { id, label, error, hint, optional, hintOnError, className: fieldClassName },
    control: controlProps(id, value, onValueChange, error, hint, hintOnError),
    rest,
  };
}

type TextFieldProps = Controlled & Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'id'>;

export function TextField({ type = 'text', ...props }: TextFieldProps) {
  const { field, control, rest } = fieldParts(props);
  const [reveal, setReveal] = useState(false);
  const isPassword = type === 'password';
  const input = (
    <input {...control} className="input" type={isPassword && reveal ? 'text' : type} {...rest} />
  );
  return (
    <Field {...field}>
      {isPassword ? (
        <div className="input-group">
          {input}
          <button
            type="button"
            className="input-addon"
            onClick={() => setReveal((r) => !r)}
            aria-label={reveal ? 'Hide password' : 'Show password'}
            aria-pressed={reveal}
            title={reveal ? 'Hide password' : 'Show password'}
          >
            {reveal ? <EyeOff size={16} aria-hidden /> : <Eye size={16} aria-hidden />}
          </button>
        </div>
      ) : (
        input
      )}
    </Field>
  );
}

type PresetFieldProps = Omit<TextFieldProps, 'type' | 'label'> & { label?: ReactNode };

/** A password with its Show button; a new password unless autoComplete says otherwise. */
export function PasswordField(props: PresetFieldProps) {
  return <TextField label="Password" type="password" autoComplete="new-password" {...props} />;
}

/** An email address, not spell-checked; the user's own unless autoComplete says otherwise. */
export function EmailField(props: PresetFieldProps) {
  return <TextField label="Email" type="email" autoComplete="email" spellCheck={false} {...props} />;
}

/** A value typed as code (a key, parameter, pattern or domain): not spell-checked, not autofilled. */
export function CodeField(props: TextFieldProps) {
  return <TextField autoComplete="off" spellCheck={false} {...props} />;
}

type SelectFieldProps = Controlled &
  Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'value' | 'id'> & {
    options: readonly { value: string; label: string }[];
  };

export function SelectField({ options, ...props }: SelectFieldProps) {
  const { field, control, rest } = fieldParts(props);
  return (
    <Field {...field}>
      <select {...control} className="input select" {...rest}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
}

type TextareaFieldProps = Controlled &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'onChange' | 'value' | 'id'> & {
    /** For one-line values shown in a textarea (license keys): Enter submits the form. */
    submitOnEnter?: boolean;
  };

export function TextareaField({ submitOnEnter, ...props }: TextareaFieldProps) {
  const { field, control, rest } = fieldParts(props);
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (submitOnEnter && e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      e.currentTarget.form?.requestSubmit();
    }
  };
  return (
    <Field {...field}>
      <textarea {...control} className="input textarea" onKeyDown={onKeyDown} {...rest} />
    </Field>
  );
}
