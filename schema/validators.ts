import { z } from 'zod';
import commonPasswords from './data/common-passwords.json';

// Small zod builders shared by every API schema, so that a missing, null or mistyped
// field gets the spec's message rather than zod's own.

/** Pattern the spec calls 'an email pattern'. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

const blankToEmpty = (v: unknown) =>
  v === undefined || v === null ? '' : typeof v === 'number' ? String(v) : v;

const tooLong = (max: number) => `This field may not be greater than ${max} characters.`;

/** A required string, trimmed; `message` when missing, not a string or blank. */
export function requiredString(message: string, max = 255, tooLongMessage = tooLong(max)) {
  return z.preprocess(
    blankToEmpty,
    z.string({ error: message }).trim().min(1, message).max(max, tooLongMessage),
  );
}

/**
 * The longest name a user gives what the screens show (campaigns, folders, landing and offer
 * pages, paths, options, banners): long enough for any real name, short enough that a phone
 * shows it in a few wrapped lines (docs/decisions/135-name-limits-and-wrapping.md).
 */
export const NAME_MAX = 100;
export const NAME_TOO_LONG = `The name may not be longer than ${NAME_MAX} characters.`;

/** A required name of at most NAME_MAX characters; `message` when missing or blank. */
export const requiredName = (message: string) => requiredString(message, NAME_MAX, NAME_TOO_LONG);

/** A required password: whitespace stripped (the screens strip it as typed), then required. */
export function requiredPassword(message: string) {
  return z.preprocess(
    blankToEmpty,
    z
      .string({ error: message })
      .transform((v) => v.replace(/\s+/g, ''))
      .pipe(z.string().min(1, message).max(200, 'This field may not be greater than 200 characters.')),
  );
}

const PASSWORD_MIN_LENGTH = 8;
const PASSWORD_MESSAGES = {
  tooShort: `The password must be at least ${PASSWORD_MIN_LENGTH} characters.`,
  tooCommon: 'This password is too common. Please choose a less common one.',
} as const;

let common: Set<string> | null = null;
/** One of the commonest passwords (schema/data/common-passwords.json), compared without case. */
function isCommonPassword(password: string): boolean {
  common ??= new Set(commonPasswords as string[]);
  return common.has(password.toLowerCase());
}

/**
 * A new password (setup, reset, registration, new users, password change): required as the
 * spec says (whitespace stripped first), then at least 8 characters (ASVS V6.2.1) and not one
 * of the commonest passwords (docs/decisions/044).
 */
export function newPassword(requiredMessage: string) {
  return requiredPassword(requiredMessage).pipe(
    z
      .string()
      .min(PASSWORD_MIN_LENGTH, PASSWORD_MESSAGES.tooShort)
      .refine((v) => !isCommonPassword(v), PASSWORD_MESSAGES.tooCommon),
  );
}

export function requiredEmail(requiredMessage: string, patternMessage: string) {
  return requiredString(requiredMessage).pipe(z.string().regex(EMAIL_PATTERN, patternMessage));
}

/** A positive integer id, from a number or a string of digits; `message` when missing or not one. */
export function positiveId(message: string) {
  return z.preprocess(
    (v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
    z.number({ error: message }).int(message).positive(message),
  );
}

/** An absolute http(s) URL with a host. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

export function optionalString(max = 255, tooLongMessage = tooLong(max)) {
  return z.preprocess(blankToEmpty, z.string().trim().max(max, tooLongMessage));
}
