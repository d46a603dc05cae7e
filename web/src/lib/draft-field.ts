// The props that wire one text field (TextField, SelectField) to a draft kept as a plain state
// object, for the forms that do not use useForm: its id, value, change and message.

export type TextKeys<T> = { [K in keyof T]: T[K] extends string ? K : never }[keyof T] & string;

/**
 * `field('width', 'banner-width')` gives the props of the field that edits `draft.width`; `set`
 * stores a typed value and `errors` holds the messages by key. Without an id, `idOf` names the
 * field's element from its key.
 */
export function draftFields<T extends object>(
  draft: T,
  set: <K extends keyof T>(key: K, value: T[K]) => void,
  errors: Record<string, string | undefined>,
  idOf: (key: string) => string = (key) => key,
) {
  return <K extends TextKeys<T>>(key: K, id = idOf(key)) => ({
    id,
    value: draft[key] as string,
    onValueChange: (value: string) => set(key, value as T[K]),
    error: errors[key],
  });
}
