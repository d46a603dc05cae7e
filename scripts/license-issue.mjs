#!/usr/bin/env node
// Mints a license key: npm run license:issue -- --key vendor-private.jwk.json --email a@b.c [--days 365]
// With --new-keypair DIR it writes a fresh vendor key pair instead (keep the private half secret;
// put the public half into LICENSE_PUBLIC_KEY).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createKeyPair, issueLicense } from './license-lib.mjs';

const { values } = parseArgs({
  options: {
    key: { type: 'string' },
    email: { type: 'string' },
    days: { type: 'string', default: '365' },
    licensee: { type: 'string' },
    'new-keypair': { type: 'string' },
  },
});

if (values['new-keypair']) {
  const dir = values['new-keypair'];
  mkdirSync(dir, { recursive: true });
  const { publicJwk, privateJwk } = await createKeyPair();
  writeFileSync(join(dir, 'vendor-private.jwk.json'), JSON.stringify(privateJwk), { mode: 0o600 });
  writeFileSync(join(dir, 'vendor-public.jwk.json'), JSON.stringify(publicJwk));
  console.log(`Key pair written to ${dir}. LICENSE_PUBLIC_KEY=${JSON.stringify(publicJwk)}`);
  process.exit(0);
}

if (!values.key || !values.email) {
  console.error(
    'usage: npm run license:issue -- --key <private.jwk.json> --email <licensee email> [--days N]',
  );
  process.exit(2);
}
const privateJwk = JSON.parse(readFileSync(values.key, 'utf8'));
const days = Number(values.days);
if (!Number.isInteger(days) || days < 1) {
  console.error('--days must be a whole number of days, 1 or more');
  process.exit(2);
}
console.log(await issueLicense(privateJwk, { email: values.email, days, licensee: values.licensee }));
