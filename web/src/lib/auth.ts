// The signed-in state of the SPA: what is stored after login, the entry check of the route
// table (token, or a server session converted to one) and the intended URL.
import { mutate } from 'swr';
import { sessionToToken } from '../api/endpoints';
import { DEFAULT_SIDE_ACTIVE_LINK, KEYS, readKey, removeKey, writeKey } from './storage';

export type StoredUser = {
  token: string;
  username: string;
  userId: number;
  roleType: string;
  roleName: string;
};

/** 'type|name' split on the pipe (spec 1 §3). */
export function splitRole(role: string): { roleType: string; roleName: string } {
  const [roleType = '', ...rest] = (role ?? '').split('|');
  return { roleType, roleName: rest.join('|') || roleType };
}

export function storeSession(input: {
  token: string;
  user: { id: number; username: string };
  role: string;
}): void {
  const { roleType, roleName } = splitRole(input.role);
  writeKey(KEYS.token, input.token);
  writeKey(KEYS.username, input.user.username);
  writeKey(KEYS.userId, input.user.id);
  writeKey(KEYS.roleType, roleType);
  writeKey(KEYS.roleName, roleName);
}

/** Forgets the token and user, resets the side menu to its first link and drops cached data. */
export function clearSession(): void {
  for (const key of [KEYS.token, KEYS.username, KEYS.userId, KEYS.roleType, KEYS.roleName]) removeKey(key);
  writeKey(KEYS.sideActiveLink, DEFAULT_SIDE_ACTIVE_LINK);
  void mutate(() => true, undefined, { revalidate: false });
}

export function getStoredUser(): StoredUser | null {
  const token = readKey(KEYS.token);
  if (!token) return null;
  return {
    token,
    username: readKey(KEYS.username) ?? '',
    userId: Number(readKey(KEYS.userId) ?? 0),
    roleType: readKey(KEYS.roleType) ?? '',
    roleName: readKey(KEYS.roleName) ?? '',
  };
}

export function hasToken(): boolean {
  return Boolean(readKey(KEYS.token));
}

/**
 * The entry check of spec 1 §2 and spec 4 §4: a stored token, or else a server session that
 * can be exchanged for one. It never redirects; it only answers.
 */
export async function isAuthenticated(): Promise<boolean> {
  if (hasToken()) return true;
  try {
    const answer = await sessionToToken();
    if (!answer?.token) return false;
    storeSession(answer);
    return true;
  } catch {
    // No session, no CSRF cookie or a refused exchange: simply not signed in.
    return false;
  }
}

/** Only same-app paths are remembered, never the auth screens themselves. */
function isSafeIntended(url: string | null): url is string {
  if (!url?.startsWith('/') || url.startsWith('//')) return false;
  return !/^\/(login|application-startup|forgot-password|reset-password|register)(\/|$|\?|#)/.test(url);
}

export function rememberIntendedUrl(url: string): void {
  if (isSafeIntended(url)) writeKey(KEYS.intendedUrl, url);
}

/** The remembered URL, forgotten once it is used. */
export function takeIntendedUrl(): string | null {
  const url = readKey(KEYS.intendedUrl);
  removeKey(KEYS.intendedUrl);
  return isSafeIntended(url) ? url : null;
}
