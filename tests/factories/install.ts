import { env } from 'cloudflare:workers';
import { importJWK, type JWK, SignJWT } from 'jose';
import { api, freshIp } from './api';

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

/** POST /api/registeruser as `token`: a new user whose password confirmation repeats the password. */
export function registerUser(
  token: string,
  { username, email, password, role }: { username: string; email: string; password: string; role: string },
) {
  return api('/api/registeruser', {
    token,
    body: { username, email, password, password_confirmation: password, role },
  });
}

let userCounter = 0;
/** Creates a user with `role` through the admin API and answers its id and token. */
export async function userWithRole(adminToken: string, role: 'admin' | 'coach' | 'student') {
  userCounter += 1;
  const username = `${role}${userCounter}`;
  const password = 'Passw0rd!';
  const res = await registerUser(adminToken, { username, email: `${username}@example.com`, password, role });
  if (res.status !== 201) throw new Error(`user creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.data.user.id as number, username, password, token: await login(username, password) };
}

/** Makes `coachId` the coach of `studentId` through the admin API (docs/decisions/124). */
export async function assignCoach(adminToken: string, studentId: number, coachId: number | null) {
  const res = await api(`/api/users/${studentId}/coach`, {
    method: 'PUT',
    token: adminToken,
    body: { coachId },
  });
  if (res.status !== 200)
    throw new Error(`coach assignment failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/** A new student coached by `coach`. */
export async function studentOf(adminToken: string, coach: { id: number }) {
  const student = await userWithRole(adminToken, 'student');
  await assignCoach(adminToken, student.id, coach.id);
  return student;
}
