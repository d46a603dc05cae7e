import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ZodError, type z } from 'zod';

import type { ErrorEnvelope, FieldErrors } from '../../schema/envelope-api';
import { MIN_SPEND_MESSAGE } from '../../schema/traffic';

export type { FieldErrors };

/** The one error type thrown anywhere in the worker; onError turns it into the envelope. */
export class ApiError extends HTTPException {
  readonly errors: FieldErrors;
  /** Headers the answer carries (a 429's Retry-After). */
  readonly headers: Record<string, string>;
  constructor(
    status: ContentfulStatusCode,
    message: string,
    errors?: FieldErrors,
    headers: Record<string, string> = {},
  ) {
    super(status, { message });
    this.errors = errors ?? { message: [message] };
    this.headers = headers;
  }
}

/** 422 with the field errors; the top-level message is the first error of the first field. */
export function validationError(errors: FieldErrors): ApiError {
  const first = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
  return new ApiError(422, first, errors);
}

/** A 422 for a single field, for rules checked after the schema (uniqueness, credentials...). */
export function fieldError(field: string, message: string): ApiError {
  return validationError({ [field]: [message] });
}

/**
 * Zod issues grouped by field. The order follows `order` (the spec's check order) and then
 * the order the issues came in.
 */
export function zodFieldErrors(issues: z.core.$ZodIssue[], order: readonly string[] = []): FieldErrors {
  const grouped: FieldErrors = {};
  for (const issue of issues) {
    const field = issue.path.length ? issue.path.map(String).join('.') : 'message';
    grouped[field] ??= [];
    if (!grouped[field].includes(issue.message)) grouped[field].push(issue.message);
  }
  const ordered: FieldErrors = {};
  for (const field of order) if (grouped[field]) ordered[field] = grouped[field];
  for (const [field, messages] of Object.entries(grouped)) ordered[field] ??= messages;
  return ordered;
}

export function errorBody(message: string, errors: FieldErrors = { message: [message] }): ErrorEnvelope {
  return { message, errors };
}

const STATUS_MESSAGES: Record<number, string> = {
  400: 'Bad request.',
  401: 'Unauthenticated.',
  403: 'This action is unauthorized.',
  404: 'Not found.',
  405: 'Method not allowed.',
  413: 'The request body is too large.',
  429: 'Too many requests.',
};

export function onError(err: Error, c: Context): Response {
  if (err instanceof ApiError) {
    return c.json(errorBody(err.message, err.errors), err.status, err.headers);
  }
  if (err instanceof ZodError) {
    const errors = zodFieldErrors(err.issues);
    return c.json(errorBody(Object.values(errors)[0]?.[0] ?? 'Invalid input.', errors), 422);
  }
  if (err instanceof HTTPException) {
    const message = err.message || STATUS_MESSAGES[err.status] || 'Request failed.';
    return c.json(errorBody(message), err.status);
  }
  // Migration 0015's trigger refused to deactivate a campaign (spec 2 §5, decision 095).
  if (`${err.message} ${String(err.cause ?? '')}`.includes(MIN_SPEND_MESSAGE)) {
    return c.json(errorBody(MIN_SPEND_MESSAGE, { active: [MIN_SPEND_MESSAGE] }), 422);
  }
  console.error('unhandled error', c.req.method, c.req.path, err);
  return c.json(errorBody('Something went wrong on our side. Please try again.'), 500);
}
