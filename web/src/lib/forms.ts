// Form state with the shared zod schemas: messages at the fields, first failing field focused.
import { type FormEvent, useCallback, useRef, useState } from 'react';
import type { z } from 'zod';
import { ApiError } from '../api/client';

export type FieldErrors<T> = Partial<Record<keyof T & string, string>>;

/** First message per field, in `order` (the spec's check order), then any other field. */
export function zodErrors<T>(error: z.ZodError, order: readonly string[] = []): FieldErrors<T> {
  const found: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path.map(String).join('.') || 'form';
    found[field] ??= issue.message;
  }
  const ordered: Record<string, string> = {};
  for (const field of order) if (found[field]) ordered[field] = found[field];
  for (const [field, message] of Object.entries(found)) ordered[field] ??= message;
  return ordered as FieldErrors<T>;
}

export function fieldId(form: string, name: string): string {
  return `${form}-${name}`;
}

export function focusField(form: string, name: string | undefined): void {
  if (!name) return;
  const el = document.getElementById(fieldId(form, name));
  if (el && 'focus' in el) (el as HTMLElement).focus();
}

/** Whitespace is stripped from password fields as they are typed (spec 1 §5). */
export const stripSpaces = (value: string) => value.replace(/\s+/g, '');

export function useForm<T extends Record<string, string>>(formId: string, initial: T) {
  const [values, setValues] = useState<T>(initial);
  const [errors, setErrors] = useState<FieldErrors<T>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const busyRef = useRef(false);
  const [busy, setBusyState] = useState(false);

  const setValue = useCallback(<K extends keyof T & string>(name: K, value: T[K]) => {
    setValues((v) => ({ ...v, [name]: value }));
    // A corrected field drops its message at once; the others keep theirs until the next submit.
    setErrors((e) => (e[name] ? { ...e, [name]: undefined } : e));
  }, []);

  /** Client-side check with a shared schema; false (and messages shown) when it fails. */
  const check = useCallback(
    <S extends z.ZodType>(schema: S, order: readonly string[] = [], input: unknown = values) => {
      const result = schema.safeParse(input);
      if (result.success) {
        setErrors({});
        return { ok: true as const, data: result.data as z.output<S> };
      }
      const found = zodErrors<T>(result.error, order);
      setErrors(found);
      focusField(formId, Object.keys(found)[0]);
      return { ok: false as const };
    },
    [formId, values],
  );

  /**
   * Server errors: 422 field messages at their fields. Answers the message that belongs to no
   * visible field (or the first message on 400), for a form-level alert.
   */
  const applyServerError = useCallback(
    (err: unknown, knownFields: readonly string[]): string | null => {
      if (!(err instanceof ApiError)) return err instanceof Error ? err.message : String(err);
      const fields = err.fieldErrors;
      const atFields: Record<string, string> = {};
      for (const [field, message] of Object.entries(fields)) {
        if (knownFields.includes(field)) atFields[field] = message;
      }
      setErrors(atFields as FieldErrors<T>);
      const firstField = Object.keys(atFields)[0];
      if (firstField) {
        focusField(formId, firstField);
        return null;
      }
      return err.firstMessage;
    },
    [formId],
  );

  /** Runs `task` once at a time: a second submit while one is in flight is ignored. */
  const submit = useCallback(async (task: () => Promise<void>) => {
    if (busyRef.current) return;
    busyRef.current = true;
    setBusyState(true);
    try {
      await task();
    } finally {
      busyRef.current = false;
      setBusyState(false);
    }
  }, []);

  /**
   * The props that wire one field of this form (id, value, change, message) for TextField,
   * SelectField or TextareaField; `clean` rewrites what is typed (e.g. stripSpaces).
   */
  const field = <K extends keyof T & string>(name: K, clean?: (value: string) => string) => ({
    id: fieldId(formId, name),
    value: values[name],
    onValueChange: (value: string) => setValue(name, (clean ? clean(value) : value) as T[K]),
    error: errors[name],
  });

  /**
   * The form's submit handler: the shared schema checks `input` (the values by default) with
   * messages at the fields; then `send` runs once at a time, and a failure shows its 422
   * messages at `fields` (default `order`) and any other message above the form. `failure` may
   * choose that other message (it gets the error and the message applyServerError found).
   */
  const onSubmitWith =
    <S extends z.ZodType>(options: {
      schema: S;
      order: readonly string[];
      input?: () => unknown;
      fields?: readonly string[];
      send: (data: z.output<S>) => Promise<void>;
      failure?: (err: unknown, message: string | null) => string | null;
    }) =>
    (event: FormEvent) => {
      event.preventDefault();
      setFormError(null);
      const checked = check(options.schema, options.order, options.input ? options.input() : values);
      if (!checked.ok) return;
      void submit(async () => {
        try {
          await options.send(checked.data);
        } catch (err) {
          const message = applyServerError(err, options.fields ?? options.order);
          const shown = options.failure ? options.failure(err, message) : message;
          if (shown) setFormError(shown);
        }
      });
    };

  return {
    values,
    setValues,
    setValue,
    field,
    onSubmitWith,
    errors,
    setErrors,
    formError,
    setFormError,
    check,
    applyServerError,
    submit,
    busy,
  };
}
