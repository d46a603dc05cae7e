import { zValidator } from '@hono/zod-validator';
import type { Context, ValidationTargets } from 'hono';
import type { z } from 'zod';
import { ApiError, errorBody, validationError, zodFieldErrors } from './errors';

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

/**
 * The request body as an object, whether it came as JSON, urlencoded or multipart form data
 * (the spec sends some calls as form data). Malformed JSON is a 400.
 */
export async function readBody(c: Context): Promise<Record<string, unknown>> {
  const type = c.req.header('content-type') ?? '';
  if (type.includes('application/json')) {
    try {
      const body = await c.req.json();
      return body && typeof body === 'object' && !Array.isArray(body) ? body : {};
    } catch {
      throw new ApiError(400, 'Malformed JSON in request body');
    }
  }
  if (type.includes('form')) {
    const form = await c.req.parseBody({ all: true });
    return form as Record<string, unknown>;
  }
  return {};
}

/** Parses `data` with `schema`; a failure throws the 422 envelope with fields in `order`. */
export function parseInput<T extends z.ZodType>(
  schema: T,
  data: unknown,
  order: readonly string[] = [],
): z.output<T> {
  const result = schema.safeParse(data);
  if (!result.success) throw validationError(zodFieldErrors(result.error.issues, order));
  return result.data;
}
