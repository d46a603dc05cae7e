import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type { z } from 'zod';
import { errorBody, zodFieldErrors } from './errors';

/**
 * zValidator with the one hook every route shares: a failure answers 422 with the field
 * errors in `order` (the spec's check order), the first of them as the message.
 */
export function validate<T extends z.ZodType, Target extends keyof ValidationTargets>(
  target: Target,
  schema: T,
  order: readonly string[] = [],
) {
  return zValidator(target, schema, (result, c) => {
    if (!result.success) {
      const errors = zodFieldErrors(result.error.issues, order);
      return c.json(errorBody(Object.values(errors)[0]?.[0] ?? 'Invalid input.', errors), 422);
    }
  });
}
