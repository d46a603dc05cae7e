#!/usr/bin/env node
// Local set-up, idempotent: creates .dev.vars with fresh secrets and a local vendor key pair
// (never committed), and a development license key the first-run setup page accepts.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createKeyPair, issueLicense } from './license-lib.mjs';

const root = new URL('..', import.meta.url);
const path = (p) => new URL(p, root);

if (!existsSync(path('.dev-keys/vendor-private.jwk.json'))) {
  mkdirSync(path('.dev-keys'), { recursive: true });
  const { publicJwk, privateJwk } = await createKeyPair();
  writeFileSync(path('.dev-keys/vendor-private.jwk.json'), JSON.stringify(privateJwk), { mode: 0o600 });
  writeFileSync(path('.dev-keys/vendor-public.jwk.json'), JSON.stringify(publicJwk));
}
const publicJwk = readFileSync(path('.dev-keys/vendor-public.jwk.json'), 'utf8');

if (!existsSync(path('.dev.vars'))) {
  const secret = () => randomBytes(32).toString('base64url');
  writeFileSync(
    path('.dev.vars'),
    [
      `JWT_SECRET=${secret()}${secret()}`,
      `PASSWORD_PEPPER=${secret()}`,
      `CLICK_ID_SECRET=${secret()}`,
      `ENCRYPTION_KEY=${randomBytes(32).toString('base64')}`,
      `LICENSE_PUBLIC_KEY=${publicJwk}`,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  console.log('Created .dev.vars with fresh local secrets.');
}

if (!existsSync(path('.dev-license.txt'))) {
  const privateJwk = JSON.parse(readFileSync(path('.dev-keys/vendor-private.jwk.json'), 'utf8'));
  const email = 'admin@example.com';
  const key = await issueLicense(privateJwk, { email, days: 3650, licensee: 'Local development' });
  writeFileSync(path('.dev-license.txt'), `email: ${email}\nlicense key: ${key}\n`);
}
