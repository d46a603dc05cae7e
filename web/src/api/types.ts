// Answer shapes of the calls the SPA makes (the `data` of each envelope).
import type { Role } from '../../../schema/roles';

export type LogoInfo = { title: string; logo: string; transparent_logo: string; favicon: string };

/** data of POST /api/auth/login. */
export type LoginAnswer = {
  user: { username: string; id: number };
  /** 'type|name', for example 'admin|Administrator'. */
  role: string;
  license: 'active' | 'inactive';
  token: string | null;
};

/** data of POST /api/auth/session-to-token. */
export type SessionTokenAnswer = { user: { id: number; username: string }; token: string; role: string };

export type StartupAnswer = { token: string; message: string };

export type MessageAnswer = { message: string };

export type LicenseInfo = { status: 'active' | 'inactive'; email: string | null; expires_at: number | null }; // expires_at in ms;

/** A user as the users endpoints answer it; role is 'type|name'. */
export type UserRecord = {
  id: number;
  username: string;
  name: string;
  email: string;
  role: string;
  rotator_is_enabled: boolean;
  created_at?: number;
};

export type CurrentUserAnswer = { user: UserRecord };
export type UsersAnswer = { result: UserRecord[] };
export type CreateUserAnswer = { message: string; user: UserRecord };
export type ChangeRoleAnswer = { message: string; user: UserRecord };

/** data of POST /api/auth/login-token: a one-time login link. */
export type LoginLink = { loginToken: string; hash: string; url: string; expiresAt: number };

export type { Role };
