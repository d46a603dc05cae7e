import type { Context } from 'hono';
import { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { settings, users } from '../../schema/auth';
import type {
  LicenseAnswer,
  LicenseDeactivateAnswer,
  LoginAnswer,
  LoginLink,
  LogoAnswer,
  MessageAnswer,
  PasswordVerifyAnswer,
  SessionTokenAnswer,
  StartupAnswer,
  UserChangeAnswer,
} from '../../schema/auth-api';
import {
  forgotPasswordSchema,
  LICENSE_FIELD_ORDER,
  licenseSchema,
  loginSchema,
  loginTokenRequestSchema,
  MESSAGES,
  NO_SESSION,
  REGISTER_FIELD_ORDER,
  RESET_FIELD_ORDER,
  registerSchema,
  resetPasswordSchema,
  SETUP_FIELD_ORDER,
  startupSchema,
} from '../../schema/auth-api';
import type { AppEnv } from '../env';
import {
  ACCOUNT_DISABLED,
  bearerToken,
  CSRF_COOKIE,
  CSRF_HEADER,
  clientIp,
  requireAuth,
  requireRole,
  roleString,
  SESSION_COOKIE,
  signToken,
  tokenTtlSeconds,
  userFromToken,
} from '../lib/auth';
import { randomToken, timingSafeEqual } from '../lib/crypto';
import { getDb } from '../lib/db';
import { ApiError, fieldError } from '../lib/errors';
import { verifyLicense } from '../lib/license';
import { hashPassword } from '../lib/password';
import { isTimeZone, timeZoneNames } from '../lib/timezones';
import { validate } from '../lib/validate';
import {
  createUser,
  issueLoginToken,
  loginAnswer,
  loginWithPassword,
  loginWithToken,
  publicUser,
  requestPasswordReset,
  resetPassword,
  revokeTokens,
  verifyPasswordReset,
} from '../services/accounts/users';
import { recordResetRequest } from '../services/auth/password-resets';
import { getSettings, invalidateSettings, settingsUpserts } from '../services/settings/settings';

function setSessionCookie(c: Context<AppEnv>, token: string) {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    secure: new URL(c.req.url).protocol === 'https:',
    maxAge: tokenTtlSeconds(c.env),
  });
}

async function answerLogin(c: Context<AppEnv>, user: typeof users.$inferSelect) {
  if (user.disabledAt !== null) throw new ApiError(403, ACCOUNT_DISABLED);
  const answer = await loginAnswer(c.env, user);
  if (answer.token) setSessionCookie(c, answer.token);
  return c.json({ data: answer satisfies LoginAnswer });
}

export const authRoutes = new Hono<AppEnv>()
  .get('/setup-created', async (c) => {
    const s = await getSettings(c.env, { fresh: true });
    return c.json({ data: (s.setup_done === '1') satisfies boolean });
  })
  .get('/timezones', (c) => c.json({ data: timeZoneNames() satisfies string[] }))
  .get('/logo', async (c) => {
    const s = await getSettings(c.env);
    const logo = s.logo ? `/files/${s.logo}` : '';
    return c.json({
      data: {
        title: s.title,
        logo,
        transparent_logo: logo,
        favicon: s.favicon ? `/files/${s.favicon}` : '',
      } satisfies LogoAnswer,
    });
  })
  .post('/auth/application_startup', validate('json', startupSchema, SETUP_FIELD_ORDER), async (c) => {
    const input = c.req.valid('json');
    if ((await getSettings(c.env, { fresh: true })).setup_done === '1')
      throw new ApiError(403, MESSAGES.setupDone);
    if (!isTimeZone(input.timezone)) throw fieldError('timezone', MESSAGES.timezoneInvalid);
    const license = await verifyLicense(c.env.LICENSE_PUBLIC_KEY, input.license_key, input.email);
    if (!license) throw fieldError('license_key', MESSAGES.licenseInvalid);

    const db = getDb(c.env);
    const passwordHash = await hashPassword(input.password, c.env.PASSWORD_PEPPER);
    // One transaction; the plain insert of setup_done fails if another setup got there first.
    try {
      await db.batch([
        db.insert(settings).values({ key: 'setup_done', value: '1' }),
        db.insert(users).values({
          username: input.username,
          name: input.username,
          email: input.email.toLowerCase(),
          passwordHash,
          role: 'admin',
        }),
        ...settingsUpserts(c.env, {
          base_url: input.baseurl.replace(/\/+$/, ''),
          email: input.email.toLowerCase(),
          time_zone: input.timezone,
          license_key: input.license_key,
          license_email: license.email,
        }),
      ]);
    } catch (err) {
      if (String(err).includes('UNIQUE')) throw new ApiError(403, MESSAGES.setupDone);
      throw err;
    } finally {
      invalidateSettings();
    }
    const user = await getDb(c.env).query.users.findFirst({ where: (u, { eq }) => eq(u.role, 'admin') });
    // No session cookie here: the wizard sends the admin to the login page.
    const token = await signToken(c.env, user!);
    return c.json({ data: { token, message: MESSAGES.setupComplete } satisfies StartupAnswer });
  })
  .post('/auth/login', validate('json', loginSchema), async (c) => {
    const { username, password, loginToken, hash } = c.req.valid('json');
    const ip = clientIp(c);
    if (loginToken || hash) {
      if (!loginToken || !hash) throw new ApiError(401, 'This login link is invalid or has expired.');
      return answerLogin(c, await loginWithToken(c.env, loginToken, hash, ip));
    }
    return answerLogin(c, await loginWithPassword(c.env, username, password, ip));
  })
  .post('/auth/session-to-token', async (c) => {
    const cookie = getCookie(c, CSRF_COOKIE) ?? '';
    const header = c.req.header(CSRF_HEADER) ?? '';
    if (!cookie || !header || !timingSafeEqual(cookie, decodeURIComponent(header))) {
      throw new ApiError(403, 'CSRF token mismatch.');
    }
    // Every signed-out page load asks: "no session" is an answer, not an error (issue 27), so
    // the console stays clean. A session cookie that no longer signs anyone in is cleared.
    const session = getCookie(c, SESSION_COOKIE);
    const user = session ? await userFromToken(c.env, session).catch(() => null) : null;
    if (!user) {
      if (session) deleteCookie(c, SESSION_COOKIE, { path: '/' });
      return c.json({ data: NO_SESSION satisfies SessionTokenAnswer });
    }
    const token = await signToken(c.env, user);
    return c.json({
      data: {
        user: { id: user.id, username: user.username },
        token,
        role: roleString(user.role),
      } satisfies SessionTokenAnswer,
    });
  })
  .post('/auth/logout', async (c) => {
    // Logout revokes every token of the user (bearer or cookie) and clears the session.
    const token = bearerToken(c) ?? getCookie(c, SESSION_COOKIE);
    if (token) {
      const user = await userFromToken(c.env, token).catch(() => null);
      if (user) await revokeTokens(c.env, user.id);
    }
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    return c.json({ data: { message: 'Logged out.' } satisfies MessageAnswer });
  })
  .post('/auth/password/email', validate('json', forgotPasswordSchema), async (c) => {
    // The same answer, in the same time, for every address: the lookup and the mail run after it.
    const { email } = c.req.valid('json');
    const withinLimits = await recordResetRequest(c.env, email, clientIp(c));
    c.executionCtx.waitUntil(
      requestPasswordReset(c.env, email, withinLimits).catch((err) =>
        console.error('reset mail failed', err),
      ),
    );
    return c.json({ data: { message: MESSAGES.resetLinkSent } satisfies MessageAnswer });
  })
  .get('/auth/password/verify', async (c) => {
    const email = c.req.query('email') ?? '';
    const token = c.req.query('token') ?? '';
    if (!email || !token || !(await verifyPasswordReset(c.env, email, token))) {
      throw new ApiError(400, MESSAGES.resetLinkInvalid);
    }
    return c.json({ data: { valid: true } satisfies PasswordVerifyAnswer });
  })
  .post('/auth/password/reset', validate('json', resetPasswordSchema, RESET_FIELD_ORDER), async (c) => {
    const { email, token, password } = c.req.valid('json');
    await resetPassword(c.env, email, token, password);
    return c.json({ data: { message: MESSAGES.passwordChanged } satisfies MessageAnswer });
  })
  .post('/auth/register', validate('json', registerSchema, REGISTER_FIELD_ORDER), async (c) => {
    if (c.env.REGISTRATION_ENABLED !== 'true') throw new ApiError(403, MESSAGES.registrationDisabled);
    const { name, email, password } = c.req.valid('json');
    const user = await createUser(c.env, { username: name, name, email, password, role: 'student' });
    return c.json(
      { data: { message: MESSAGES.registered, user: publicUser(user) } satisfies UserChangeAnswer },
      201,
    );
  })
  .post(
    '/auth/login-token',
    requireAuth,
    requireRole('admin'),
    validate('json', loginTokenRequestSchema),
    async (c) => {
      const link = await issueLoginToken(c.env, c.req.valid('json').userId, c.get('user').id);
      return c.json({ data: link satisfies LoginLink }, 201);
    },
  )
  .get('/license', async (c) => {
    const s = await getSettings(c.env);
    const claims = await verifyLicense(c.env.LICENSE_PUBLIC_KEY, s.license_key, s.license_email || undefined);
    return c.json({
      data: (claims
        ? { status: 'active', email: claims.email, expires_at: claims.expiresAt }
        : { status: 'inactive', email: s.license_email || null, expires_at: null }) satisfies LicenseAnswer,
    });
  })
  .post('/license/activate', validate('json', licenseSchema, LICENSE_FIELD_ORDER), async (c) => {
    const { email, licenseKey } = c.req.valid('json');
    // While the license is inactive nobody can log in, so activation is open; replacing an
    // active license takes an admin.
    const s = await getSettings(c.env, { fresh: true });
    const current = await verifyLicense(
      c.env.LICENSE_PUBLIC_KEY,
      s.license_key,
      s.license_email || undefined,
    );
    if (current) {
      const token = bearerToken(c);
      const user = token ? await userFromToken(c.env, token) : null;
      if (user?.role !== 'admin') throw new ApiError(403, MESSAGES.licenseReplaceAdminOnly);
    }
    const claims = await verifyLicense(c.env.LICENSE_PUBLIC_KEY, licenseKey, email);
    if (!claims) throw fieldError('licenseKey', MESSAGES.licenseInvalid);
    const db = getDb(c.env);
    const [first, ...rest] = settingsUpserts(c.env, { license_key: licenseKey, license_email: claims.email });
    await db.batch([first, ...rest]);
    invalidateSettings();
    return c.json({
      data: { status: 'active', email: claims.email, expires_at: claims.expiresAt } satisfies LicenseAnswer,
    });
  })
  .post('/license/deactivate', requireAuth, requireRole('admin'), async (c) => {
    const db = getDb(c.env);
    const [first, ...rest] = settingsUpserts(c.env, { license_key: '', license_email: '' });
    await db.batch([first, ...rest]);
    invalidateSettings();
    return c.json({
      data: { status: 'inactive', message: 'License deactivated.' } satisfies LicenseDeactivateAnswer,
    });
  });

/** CSRF cookie for the session-to-token exchange (Sanctum's double-submit pattern). */
export function csrfCookieHandler(c: Context<AppEnv>) {
  setCookie(c, CSRF_COOKIE, randomToken(24), {
    httpOnly: false,
    sameSite: 'Lax',
    path: '/',
    secure: new URL(c.req.url).protocol === 'https:',
    maxAge: 2 * 60 * 60,
  });
  return c.body(null, 204);
}
