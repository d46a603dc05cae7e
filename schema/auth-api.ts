import { z } from 'zod';
import { ROLES } from './roles';
import { newPassword, optionalString, requiredEmail, requiredPassword, requiredString } from './validators';

export const MESSAGES = {
  usernameInvalid: 'Username field is not valid.',
  usernameRequired: 'Username field is required.',
  usernameReserved: 'The username "Admin" is reserved. Choose another username.',
  passwordRequired: 'Password field is required.',
  confirmRequired: 'Confirm Password field is required.',
  confirmMismatch: 'Confirm Password do not match with Password.',
  baseUrlRequired: 'Base url field is required.',
  emailRequired: 'Email field is required.',
  emailInvalid: 'Please enter valid email address.',
  licenseEmailInvalid: 'Enter valid email address.',
  timezoneRequired: 'Timezone field is required.',
  licenseKeyRequired: 'License key is required.',
  licenseFieldRequired: 'License field is required.',
  licenseInvalid: 'Invalid email or licenseKey',
  loginFailed: 'Username or Password are incorrect',
  sessionTimeout: 'Session timeout. Please login again.',
  setupComplete: 'Setup complete! You may now log in.',
  setupDone: 'Setup has already been completed.',
  registered: 'Successfully registered.',
  passwordChanged: 'Password successfully changed',
  resetLinkSent:
    'If an account uses that address, we have sent it a link to reset the password. Please check your email.',
  resetLinkInvalid: 'This password reset link is invalid or has expired.',
  tooManyAttempts: 'Too many failed login attempts. Please try again in 15 minutes.',
  registrationDisabled: 'Registration is disabled on this installation.',
  baseUrlInvalid: 'Base url must be a valid http or https URL.',
  timezoneInvalid: 'Timezone field is not valid.',
  usernameTaken: 'This username is already taken.',
  roleInvalid: 'Role must be admin, coach or student.',
  licenseReplaceAdminOnly: 'A license is already active. Sign in as an administrator to replace it.',
} as const;

/** The answer while a login must wait a little (docs/decisions/041). */
export function tooManyAttemptsWait(seconds: number): string {
  return `Too many failed login attempts. Please try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`;
}

/** First-run setup, checked in the spec's order (spec 1 §5). */
export const SETUP_FIELD_ORDER = [
  'username',
  'password',
  'confirm_password',
  'baseurl',
  'email',
  'timezone',
  'license_key',
] as const;

const usernameRule = (required: string, reserved: string) =>
  requiredString(required, 60).pipe(
    z
      .string()
      .refine((v) => v.toLowerCase() !== 'admin', reserved)
      .refine((v) => /^[\w.@-]+$/.test(v), MESSAGES.usernameInvalid),
  );
/** First-run setup: the spec gives one message for an empty username and for 'Admin' (spec 1 §5). */
const username = usernameRule(MESSAGES.usernameInvalid, MESSAGES.usernameInvalid);
/** A user made by an administrator: the spec is silent, so each refusal says what is wrong (decision 141). */
const newUsername = usernameRule(MESSAGES.usernameRequired, MESSAGES.usernameReserved);

const httpUrl = (required: string) =>
  requiredString(required, 500).pipe(
    z.string().refine((v) => {
      try {
        const u = new URL(v);
        return u.protocol === 'http:' || u.protocol === 'https:';
      } catch {
        return false;
      }
    }, MESSAGES.baseUrlInvalid),
  );

export const startupSchema = z
  .object({
    username,
    password: newPassword(MESSAGES.passwordRequired),
    confirm_password: requiredPassword(MESSAGES.confirmRequired),
    baseurl: httpUrl(MESSAGES.baseUrlRequired),
    email: requiredEmail(MESSAGES.emailRequired, MESSAGES.emailInvalid),
    timezone: requiredString(MESSAGES.timezoneRequired, 64),
    license_key: requiredString(MESSAGES.licenseKeyRequired, 4000),
  })
  .superRefine((v, ctx) => {
    if (v.password !== v.confirm_password) {
      ctx.addIssue({ code: 'custom', path: ['confirm_password'], message: MESSAGES.confirmMismatch });
    }
  });
export type StartupInput = z.input<typeof startupSchema>;

export const loginSchema = z.object({
  username: optionalString(60),
  password: z.preprocess((v) => (typeof v === 'string' ? v.replace(/\s+/g, '') : ''), z.string().max(200)),
  loginToken: optionalString(200),
  hash: optionalString(200),
});

export const LICENSE_FIELD_ORDER = ['email', 'licenseKey'] as const;
export const licenseSchema = z.object({
  email: requiredEmail(MESSAGES.emailRequired, MESSAGES.licenseEmailInvalid),
  licenseKey: requiredString(MESSAGES.licenseFieldRequired, 4000),
});

export const forgotPasswordSchema = z.object({
  email: requiredEmail(MESSAGES.emailRequired, MESSAGES.emailInvalid),
});

export const RESET_FIELD_ORDER = ['email', 'token', 'password', 'password_confirmation'] as const;
export const resetPasswordSchema = z
  .object({
    email: requiredEmail(MESSAGES.emailRequired, MESSAGES.emailInvalid),
    token: requiredString(MESSAGES.resetLinkInvalid, 200),
    password: newPassword(MESSAGES.passwordRequired),
    password_confirmation: requiredPassword(MESSAGES.confirmRequired),
  })
  .superRefine((v, ctx) => {
    if (v.password !== v.password_confirmation) {
      ctx.addIssue({ code: 'custom', path: ['password_confirmation'], message: MESSAGES.confirmMismatch });
    }
  });

export const REGISTER_FIELD_ORDER = ['name', 'email', 'password'] as const;
export const registerSchema = z.object({
  name: requiredString('Name field is required.', 60),
  email: requiredEmail(MESSAGES.emailRequired, MESSAGES.emailInvalid),
  password: newPassword(MESSAGES.passwordRequired),
});

export const CREATE_USER_FIELD_ORDER = [
  'username',
  'email',
  'password',
  'password_confirmation',
  'role',
] as const;
export const createUserSchema = z
  .object({
    username: newUsername,
    email: requiredEmail(MESSAGES.emailRequired, MESSAGES.emailInvalid),
    password: newPassword(MESSAGES.passwordRequired),
    password_confirmation: requiredPassword(MESSAGES.confirmRequired),
    role: z.enum(ROLES, { error: MESSAGES.roleInvalid }),
  })
  .superRefine((v, ctx) => {
    if (v.password !== v.password_confirmation) {
      ctx.addIssue({ code: 'custom', path: ['password_confirmation'], message: MESSAGES.confirmMismatch });
    }
  });
export type CreateUserInput = z.input<typeof createUserSchema>;

export const changeRoleSchema = z.object({ role: z.enum(ROLES, { error: MESSAGES.roleInvalid }) });

export const loginTokenRequestSchema = z.object({
  userId: z.coerce
    .number({ error: 'User is required.' })
    .int('User is required.')
    .positive('User is required.'),
});

// ---- answers (the `data` of each envelope; worker/routes/auth.ts and users.ts answer these) --

export type MessageAnswer = { message: string };

/** GET /api/logo: paths under /files/, or '' when none is set. */
export type LogoAnswer = { title: string; logo: string; transparent_logo: string; favicon: string };

/** POST /api/auth/login; role is 'type|name', for example 'admin|Administrator'. */
export type LoginAnswer = {
  user: { username: string; id: number };
  role: string;
  license: 'active' | 'inactive';
  /** null while the license is inactive. */
  token: string | null;
};

/** POST /api/auth/session-to-token. */
export type SessionTokenAnswer =
  | { user: { id: number; username: string }; token: string; role: string }
  | { user: null; token: null; role: null; message: string };

/** POST /api/auth/session-to-token without a usable session: a 200, not a 401 (issue 27). */
export const NO_SESSION = { user: null, token: null, role: null, message: 'No session.' } as const;

/** POST /api/auth/application_startup. */
export type StartupAnswer = { token: string; message: string };

/** GET /api/auth/password/verify (an invalid link answers 400 instead). */
export type PasswordVerifyAnswer = { valid: true };

/** GET /api/license and POST /api/license/activate; expires_at in ms. */
export type LicenseAnswer = {
  status: 'active' | 'inactive';
  email: string | null;
  expires_at: number | null;
};

/** POST /api/license/deactivate. */
export type LicenseDeactivateAnswer = { status: 'inactive'; message: string };

/** A user as the users endpoints answer it; role is 'type|name'. */
export type UserRecord = {
  id: number;
  username: string;
  name: string;
  email: string;
  role: string;
  rotator_is_enabled: boolean;
  /** Disabled by an admin: cannot sign in (docs/decisions/116). */
  disabled: boolean;
  /** A student's coach (docs/decisions/124); null for none and for every other role. */
  coach_id: number | null;
  created_at: number;
};

/** GET /api/user and /api/user-get. */
export type CurrentUserAnswer = { user: UserRecord };
/**
 * POST /api/auth/getUser {username} (spec 2 §7, spec 4 §7 "user lookup"): the users whose
 * username holds the text, as a list (docs/decisions/174-user-lookup-and-unread-settings.md).
 */
export const getUserSchema = z.object({ username: requiredString(MESSAGES.usernameRequired, 60) });
export type GetUserAnswer = { user: UserRecord[] };
/** GET /api/users. */
export type UsersAnswer = { result: UserRecord[] };
/** POST /api/registeruser, POST /api/auth/register and PUT /api/users/:id/role. */
export type UserChangeAnswer = { message: string; user: UserRecord };

/** POST /api/auth/login-token: a one-time login link. */
export type LoginLink = { loginToken: string; hash: string; url: string; expiresAt: number };

/** POST /api/auth/login as the SPA sends it (a login link fills loginToken and hash). */
export type LoginInput = z.output<typeof loginSchema>;
