// One function per call of the API, so screens and loaders never spell paths themselves.
import type { CreateUserInput, StartupInput } from '../../../schema/auth-api';
import type { Role } from '../../../schema/roles';
import { api, fetchCsrfCookie } from './client';
import type {
  ChangeRoleAnswer,
  CreateUserAnswer,
  LicenseInfo,
  LoginAnswer,
  LoginLink,
  MessageAnswer,
  SessionTokenAnswer,
  StartupAnswer,
} from './types';

export const paths = {
  logo: 'logo',
  timezones: 'timezones',
  setupCreated: 'setup-created',
  currentUser: 'user',
  users: 'users',
  license: 'license',
} as const;

export const getSetupCreated = () => api.get<boolean>(paths.setupCreated);

export type LoginInput = { username: string; password: string; loginToken: string; hash: string };

// The login call's 401 is its answer ('Username or Password are incorrect'), never a timeout.
export const login = (input: LoginInput) =>
  api.post<LoginAnswer>('auth/login', input, { skipAuthRedirect: true });

export const logout = () => api.post<MessageAnswer>('auth/logout', {}, { skipAuthRedirect: true });

export const applicationStartup = (input: StartupInput) =>
  api.post<StartupAnswer>('auth/application_startup', input);

/** GET /sanctum/csrf-cookie, then POST session-to-token with the X-XSRF-TOKEN header. */
export async function sessionToToken(): Promise<SessionTokenAnswer> {
  const xsrf = await fetchCsrfCookie();
  if (!xsrf) throw new Error('No CSRF cookie');
  return api.post<SessionTokenAnswer>(
    'auth/session-to-token',
    {},
    { headers: { 'X-XSRF-TOKEN': decodeURIComponent(xsrf) }, skipAuthRedirect: true },
  );
}

export const activateLicense = (input: { email: string; licenseKey: string }) =>
  api.post<LicenseInfo>('license/activate', input);

export const requestPasswordReset = (input: { email: string }) =>
  api.post<MessageAnswer>('auth/password/email', input);

export const verifyPasswordReset = (email: string, token: string) =>
  api.get<{ valid: boolean }>('auth/password/verify', { query: { email, token } });

export const resetPassword = (input: {
  email: string;
  token: string;
  password: string;
  password_confirmation: string;
}) => api.post<MessageAnswer>('auth/password/reset', input);

export const register = (input: { name: string; email: string; password: string }) =>
  api.post<MessageAnswer>('auth/register', input);

export const createUser = (input: CreateUserInput) => api.post<CreateUserAnswer>('registeruser', input);

export const changeUserRole = (id: number, role: Role) =>
  api.put<ChangeRoleAnswer>(`users/${id}/role`, { role });

export const createLoginLink = (userId: number) => api.post<LoginLink>('auth/login-token', { userId });
