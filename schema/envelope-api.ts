// The envelope every API answer comes in (ARCHITECTURE.md): `{ data }` on success, the error
// envelope below on failure. worker/lib/errors.ts writes it; web/src/api/client.ts reads it.

/** Messages per field, in the order the form shows them; `message` repeats the first one. */
export type FieldErrors = Record<string, string[]>;

export type ErrorEnvelope = { message: string; errors: FieldErrors };
