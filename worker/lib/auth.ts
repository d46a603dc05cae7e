import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { type Role, users } from '../../schema/auth';
import type { AppEnv, Env } from '../env';
import type { AuthUser } from './auth-user';
import { getDb } from './db';
import { ApiError } from './errors';

export type { AuthUser };

const DEFAULT_TTL_SECONDS = 12 * 60 * 60;
export const SESSION_COOKIE = 'tracker_session';
export const CSRF_COOKIE = 'XSRF-TOKEN';
export const CSRF_HEADER = 'X-XSRF-TOKEN';

const ROLE_NAMES: Record<Role, string> = { admin: 'Administrator', coach: 'Coach', student: 'Student' };

/** The spec's 'type|name' role string. */
export function roleString(role: Role): string {
  return `${role}|${ROLE_NAMES[role]}`;
}

function secretKey(env: Env): Uint8Array {
  if (!env.JWT_SECRET || env.JWT_SECRET.length < 32) {
    throw new Error('JWT_SECRET is missing or shorter than 32 characters');
  }
  return new TextEncoder().encode(env.JWT_SECRET);
}

export function tokenTtlSeconds(env: Env): number {
  const ttl = Number(env.TOKEN_TTL_SECONDS);
  return Number.isFinite(ttl) && ttl > 0 ? ttl : DEFAULT_TTL_SECONDS;
}

export async function signToken(env: Env, user: { id: number; tokenVersion: number }): Promise<string> {
  return new SignJWT({ ver: user.tokenVersion })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(user.id))
    .setIssuedAt()
    .setExpirationTime(`${tokenTtlSeconds(env)}s`)
    .sign(secretKey(env));
}

const SESSION_EXPIRED = 'Session timeout. Please login again.';
export const ACCOUNT_DISABLED = 'This account is disabled. Ask an administrator to enable it.';

/** Verifies a token and that it was not revoked; answers the user it belongs to. */
export async function userFromToken(env: Env, token: string): Promise<AuthUser> {
  let payload: { sub?: string; ver?: unknown };
  try {
    // A token without exp would never expire: refused (docs/decisions/044).
    ({ payload } = await jwtVerify(token, secretKey(env), {
      algorithms: ['HS256'],
      requiredClaims: ['exp'],
    }));
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw new ApiError(401, SESSION_EXPIRED);
    throw new ApiError(401, 'Unauthenticated.');
  }
  const id = Number(payload.sub);
  if (!Number.isInteger(id)) throw new ApiError(401, 'Unauthenticated.');
  const row = await getDb(env).select().from(users).where(eq(users.id, id)).get();
  if (!row || row.tokenVersion !== payload.ver) throw new ApiError(401, SESSION_EXPIRED);
  // A disabled account's tokens are refused even if one escaped the revocation (docs/decisions/116).
  if (row.disabledAt !== null) throw new ApiError(401, ACCOUNT_DISABLED);
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    role: row.role,
    rotatorIsEnabled: row.rotatorIsEnabled === 1,
    tokenVersion: row.tokenVersion,
  };
}

export function bearerToken(c: Context): string | null {
  const header = c.req.header('Authorization') ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header);
  return match ? match[1].trim() : null;
}

/** Every authenticated route: a valid, unrevoked bearer token, else 401. */
export const requireAuth = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearerToken(c);
  if (!token) throw new ApiError(401, 'Unauthenticated.');
  c.set('user', await userFromToken(c.env, token));
  await next();
});

/** The role guard: use after requireAuth. A user without one of `roles` gets 403. */
export function requireRole(...roles: Role[]) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const user = c.get('user');
    if (!user) throw new ApiError(401, 'Unauthenticated.');
    if (!roles.includes(user.role)) throw new ApiError(403, 'This action is unauthorized.');
    await next();
  });
}

/** The guard of what every role (admin, coach, student) may do on its own campaigns. */
export const anyRole = requireRole('admin', 'coach', 'student');

/**
 * The client's address as Cloudflare saw it. Only CF-Connecting-IP: Cloudflare sets it and
 * overwrites any copy the client sent, while X-Real-IP or X-Forwarded-For are whatever the
 * client wrote, and would give every guess a fresh address (docs/decisions/041). Without it
 * (local development) every request shares one address.
 */
export function clientIp(c: Context): string {
  return c.req.header('CF-Connecting-IP')?.trim() || 'local';
}
