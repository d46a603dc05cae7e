// The secrets every installation generates for itself (README, "Configuration and secrets"):
// `npm run setup:local` writes them to .dev.vars, `npm run deploy` puts the missing ones on the Worker.
import { randomBytes } from 'node:crypto';

const token = (bytes) => randomBytes(bytes).toString('base64url');

/** Generators by secret name; nothing else about an installation's secrets is generated. */
export const GENERATED_SECRETS = {
  JWT_SECRET: () => token(64),
  PASSWORD_PEPPER: () => token(32),
  CLICK_ID_SECRET: () => token(32),
  // AES-GCM key: base64 of exactly 32 bytes (worker/lib/secrets.ts).
  ENCRYPTION_KEY: () => randomBytes(32).toString('base64'),
};

/** Fresh values for the named secrets (all of GENERATED_SECRETS by default). */
export function generateSecrets(names = Object.keys(GENERATED_SECRETS)) {
  return Object.fromEntries(names.map((name) => [name, GENERATED_SECRETS[name]()]));
}
