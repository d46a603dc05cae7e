#!/usr/bin/env node
// Local set-up, idempotent: creates .dev.vars with fresh secrets and a local vendor key pair
// (never committed), and a development license key the first-run setup page accepts.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { generateSecrets } from './installation-secrets.mjs';
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
  const secrets = generateSecrets();
  writeFileSync(
    path('.dev.vars'),
    [
      ...Object.entries(secrets).map(([name, value]) => `${name}=${value}`),
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
