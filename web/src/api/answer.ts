import type { ErrorEnvelope } from '../../../schema/envelope-api';

// What the SPA's generic API layer makes of an answer (spec 4 §8, decision 176): the data, or the
// error to throw and the words it shows by itself. No DOM here: web/src/api/client.ts does the
// fetch and the side effects; tests/unit/api-client.test.ts reads this in the Workers pool.

/** Every failed call throws this: the HTTP status and the error envelope the server sent. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorEnvelope;
  readonly statusText: string;

  constructor(status: number, body: ErrorEnvelope, statusText = '') {
    super(body.message || statusText || `Request failed (${status})`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.statusText = statusText;
  }

  /** The first message of the first entry in errors (spec 1 §8), else the message. */
  get firstMessage(): string {
    const first = Object.values(this.body.errors ?? {})[0]?.[0];
    return first || this.body.message || this.statusText || `Request failed (${this.status})`;
  }

  /** The first message of each field, in the order the server sent them (the spec's order). */
  get fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [field, messages] of Object.entries(this.body.errors ?? {})) {
      if (messages?.[0]) out[field] = messages[0];
    }
    return out;
  }

  get isValidation(): boolean {
    return this.status === 422 || this.status === 400;
  }
}

/** Status texts of the server failures, for HTTP/2, whose answers carry none. */
const STATUS_TEXT: Record<number, string> = {
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** A server failure's status text (spec 4 §8: "on 500 it shows the status text"). */
function statusText(status: number, text: string): string {
  return text || STATUS_TEXT[status] || `Server error (${status})`;
}

/**
 * Spec 4 §8, "Response with errors true": a 2xx answer whose body says `errors: true` failed;
 * its words are `data.message` (or the body's own `message`).
 */
function failedAnswer(body: unknown): string | null {
  if (!body || typeof body !== 'object' || (body as { errors?: unknown }).errors !== true) return null;
  const b = body as { data?: { message?: unknown }; message?: unknown };
  const message = typeof b.data?.message === 'string' ? b.data.message : b.message;
  return typeof message === 'string' && message.trim() ? message : 'The request failed.';
}

export function toEnvelope(body: unknown, fallback: string): ErrorEnvelope {
  if (body && typeof body === 'object') {
    const b = body as Partial<ErrorEnvelope>;
    const message = typeof b.message === 'string' ? b.message : fallback;
    const errors = b.errors && typeof b.errors === 'object' ? b.errors : { message: [message] };
    return { message, errors };
  }
  return { message: fallback, errors: { message: [fallback] } };
}

/** The answer's data, or the error to throw and what the layer shows by itself (a warning toast). */
type Verdict =
  | { data: unknown; error?: undefined; notice?: undefined }
  | { error: ApiError; notice: string | null };

export function judgeAnswer(status: number, statusLine: string, body: unknown, quiet = false): Verdict {
  if (status < 200 || status >= 300) {
    const text = status >= 500 ? statusText(status, statusLine) : statusLine;
    const error = new ApiError(status, toEnvelope(body, text), text);
    // Spec 4 §8, "Other statuses": a server failure's status text in a warning toast; the
    // screen's own failure message follows. A 4xx carries the server's words, which the screens
    // show (decision 176).
    return { error, notice: status >= 500 && !quiet ? text : null };
  }
  const failed = failedAnswer(body);
  if (failed !== null) {
    return {
      error: new ApiError(status, { message: failed, errors: { message: [failed] } }, statusLine),
      notice: failed,
    };
  }
  return {
    data: body && typeof body === 'object' && 'data' in body ? (body as { data: unknown }).data : body,
  };
}
