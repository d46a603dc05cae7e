import type { Role } from '../../schema/auth';

// The signed-in user of a request: lib/auth.ts reads it from the session, worker/env.ts types the
// request's `user` variable with it. Its own module, so that env.ts need not import lib/auth.ts,
// which imports env.ts (docs/decisions/161).
export type AuthUser = {
  id: number;
  username: string;
  email: string;
  role: Role;
  rotatorIsEnabled: boolean;
  tokenVersion: number;
};
