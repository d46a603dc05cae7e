import { SELF } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { importJWK, type JWK, SignJWT } from 'jose';

export type ApiAnswer<T = any> = { status: number; body: T; headers: Headers };

let ipCounter = 0;
/** A distinct client address per call site, so the login rate limit of one test spares the others. */
export function freshIp(): string {
  ipCounter += 1;
  return `198.51.100.${ipCounter % 250}`;
}

/** One API call through the Worker's own fetch handler. JSON in and out. */
export async function api<T = any>(
  path: string,
  init: { method?: string; body?: unknown; token?: string | null; headers?: Record<string, string> } = {},
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body: BodyInit | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await SELF.fetch(`http://tracker.test${path}`, {
    method: init.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
    redirect: 'manual',
  });
  const text = await response.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}

/** A license key signed with the tests' vendor key. */
export async function licenseKey(email: string, { expiresIn = '30d' }: { expiresIn?: string | number } = {}) {
  const key = await importJWK(JSON.parse(env.TEST_LICENSE_PRIVATE_JWK) as JWK, 'EdDSA');
  return new SignJWT({ email })
    .setProtectedHeader({ alg: 'EdDSA' })
    .setIssuer('edge-tracker-license')
    .setSubject(email)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(key);
}

export const ADMIN = { username: 'owner', password: 'Sup3r-secret', email: 'owner@example.com' };

export async function setupInput(overrides: Record<string, unknown> = {}) {
  return {
    username: ADMIN.username,
    password: ADMIN.password,
    confirm_password: ADMIN.password,
    baseurl: 'https://tracker.example.com',
    email: ADMIN.email,
    timezone: 'America/New_York',
    license_key: await licenseKey(ADMIN.email),
    ...overrides,
  };
}

/** Runs first-run setup (once per test file's storage) and answers the admin's token. */
export async function setupInstallation(): Promise<string> {
  const done = await api<{ data: boolean }>('/api/setup-created');
  if (done.body.data) return login(ADMIN.username, ADMIN.password);
  const res = await api('/api/auth/application_startup', { body: await setupInput() });
  if (res.status !== 200) throw new Error(`setup failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.token;
}

export async function login(username: string, password: string): Promise<string> {
  const res = await api('/api/auth/login', {
    body: { username, password },
    headers: { 'CF-Connecting-IP': freshIp() },
  });
  if (res.status !== 200 || !res.body.data.token)
    throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.token;
}

let userCounter = 0;
/** Creates a user with `role` through the admin API and answers its id and token. */
export async function userWithRole(adminToken: string, role: 'admin' | 'coach' | 'student') {
  userCounter += 1;
  const username = `${role}${userCounter}`;
  const password = 'Passw0rd!';
  const res = await api('/api/registeruser', {
    token: adminToken,
    body: { username, email: `${username}@example.com`, password, password_confirmation: password, role },
  });
  if (res.status !== 201) throw new Error(`user creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.data.user.id as number, username, password, token: await login(username, password) };
}
