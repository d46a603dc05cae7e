import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from './errors';

// Every request body is read once, here, before any handler sees it (docs/decisions/125): a body
// that cannot be read answers 400 with one of BODY_MESSAGES, never a 500 from deep in a handler.
// The API gets it through `limitedBody`, which every body limit of the app is, so a new route
// behind any limit gets it for free; the tracking postbacks and pixels call `parseBodyBytes`.

export const BODY_MESSAGES = {
  json: 'The request body is not valid JSON.',
  notObject: 'The request body must be a JSON object.',
  utf8: 'The request body is not valid UTF-8 text.',
  noBoundary: 'The multipart form data has no boundary in its Content-Type.',
  multipart: 'The multipart form data could not be read: it is malformed or cut off.',
  urlencoded: 'The form data could not be read: it is not valid URL encoding.',
  contentType:
    'Send the request body as JSON (application/json) or as form data (multipart/form-data or application/x-www-form-urlencoded).',
} as const;

const unreadable = (message: string) => new ApiError(400, message);

export type ParsedBody =
  | { kind: 'empty' }
  | { kind: 'json'; value: Record<string, unknown> }
  | { kind: 'form'; form: FormData }
  | { kind: 'other' };

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/;
const mediaTypeOf = (contentType: string) => contentType.split(';')[0].trim().toLowerCase();

function utf8(bytes: ArrayBuffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw unreadable(BODY_MESSAGES.utf8);
  }
}

/** Every name and value of an urlencoded body decodes (no stray '%', no invalid UTF-8 escapes). */
function checkUrlencoded(text: string): void {
  for (const part of text.split('&')) {
    for (const piece of part.split('=')) {
      try {
        decodeURIComponent(piece.replace(/\+/g, ' '));
      } catch {
        throw unreadable(BODY_MESSAGES.urlencoded);
      }
    }
  }
}

/**
 * The body as what its Content-Type says, or a 400 ApiError saying why it cannot be read. An
 * empty body is `empty` whatever the type. Other content types are refused, or left unread when
 * `others` is 'ignore' (the tracking routes, which read the query string as well).
 */
export async function parseBodyBytes(
  bytes: ArrayBuffer,
  contentType: string,
  others: 'refuse' | 'ignore' = 'refuse',
): Promise<ParsedBody> {
  if (bytes.byteLength === 0) return { kind: 'empty' };
  const media = mediaTypeOf(contentType);
  if (JSON_TYPE.test(media)) {
    const text = utf8(bytes);
    if (text.trim() === '') return { kind: 'empty' };
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw unreadable(BODY_MESSAGES.json);
    }
    if (!value || typeof value !== 'object' || Array.isArray(value))
      throw unreadable(BODY_MESSAGES.notObject);
    return { kind: 'json', value: value as Record<string, unknown> };
  }
  if (media === 'multipart/form-data' || media === 'application/x-www-form-urlencoded') {
    if (media === 'multipart/form-data' && !/;\s*boundary=("[^"]+"|[^;\s]+)/i.test(contentType)) {
      throw unreadable(BODY_MESSAGES.noBoundary);
    }
    if (media === 'application/x-www-form-urlencoded') checkUrlencoded(utf8(bytes));
    try {
      const form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
      return { kind: 'form', form };
    } catch {
      throw unreadable(media === 'multipart/form-data' ? BODY_MESSAGES.multipart : BODY_MESSAGES.urlencoded);
    }
  }
  if (others === 'ignore') return { kind: 'other' };
  throw unreadable(BODY_MESSAGES.contentType);
}

/**
 * Reads the body once and leaves it in Hono's body cache, so validators, `readBody` and
 * `c.req.formData()` get the parsed copy: an empty JSON body reads as `{}`.
 */
async function readableBody(c: Context, next: () => Promise<void>): Promise<void> {
  if (!c.req.raw.body) return next();
  const type = c.req.header('content-type') ?? '';
  const parsed = await parseBodyBytes(await c.req.arrayBuffer(), type);
  // Hono keeps promises in its body cache although its type names the values.
  const cache = c.req.bodyCache as Record<string, Promise<unknown>>;
  if (parsed.kind === 'empty' && JSON_TYPE.test(mediaTypeOf(type))) cache.text = Promise.resolve('{}');
  if (parsed.kind === 'form') cache.formData = Promise.resolve(parsed.form);
  return next();
}

const MB = 1024 * 1024;

/** A byte count as the limits are written: '1 MB', '10.3 MB', '512 KB'. */
function sizeText(bytes: number): string {
  if (bytes >= MB) return `${Number((bytes / MB).toFixed(1))} MB`;
  return `${Math.round(bytes / 1024)} KB`;
}

/** The 413 of a body over `maxSize`, naming the limit. */
const bodyTooLarge = (maxSize: number) =>
  new ApiError(413, `The request body is too large: the limit is ${sizeText(maxSize)}.`);

/**
 * The one body limit of the app: over `maxSize` answers 413 (`tooLarge`, by default naming the
 * limit), then the body is read and an unreadable one answers 400 (BODY_MESSAGES).
 */
export function limitedBody(maxSize: number, tooLarge: () => ApiError = () => bodyTooLarge(maxSize)) {
  const limit = bodyLimit({
    maxSize,
    onError: () => {
      throw tooLarge();
    },
  });
  const middleware: MiddlewareHandler = (c, next) => limit(c, () => readableBody(c, next));
  return middleware;
}
