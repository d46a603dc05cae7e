import { zValidator } from '@hono/zod-validator';
import type { Context, ValidationTargets } from 'hono';
import type { z } from 'zod';
import { BODY_MESSAGES } from './body';
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
 * (the spec sends some calls as form data). The app's body limit (`limitedBody`) has already
 * read it and answered an unreadable one 400, so this reads the cached copy.
 */
export async function readBody(c: Context): Promise<Record<string, unknown>> {
  const type = c.req.header('content-type') ?? '';
  if (type.includes('json')) {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new ApiError(400, BODY_MESSAGES.json);
    }
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw new ApiError(400, BODY_MESSAGES.notObject);
    return body as Record<string, unknown>;
  }
  if (type.includes('form')) {
    try {
      return (await c.req.parseBody({ all: true })) as Record<string, unknown>;
    } catch {
      throw new ApiError(
        400,
        type.includes('multipart') ? BODY_MESSAGES.multipart : BODY_MESSAGES.urlencoded,
      );
    }
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

/** The id a path names (a positive whole number), or 404 with `notFound`. */
export function pathId(raw: string, notFound: string): number {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id < 1) throw new ApiError(404, notFound);
  return id;
}
