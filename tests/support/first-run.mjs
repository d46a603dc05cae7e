// The first run of an installation over its API, as a new owner goes through it: the setup
// wizard's call with a fresh license from the local vendor key (`scripts/dev-setup.mjs` makes it),
// then the owner's sign-in. Used by the browser tests, tests/support/installation.mjs (tests/multi,
// tests/security) and the UI and operator benchmarks.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { issueLicense } from '../../scripts/license-lib.mjs';

const root = new URL('../../', import.meta.url);

/** A 30-day license for `email`, signed with the local vendor key. */
export async function mintLicense(email) {
  const jwk = JSON.parse(readFileSync(new URL('.dev-keys/vendor-private.jwk.json', root), 'utf8'));
  return issueLicense(jwk, { email, days: 30 });
}

async function post(base, path, body) {
  const res = await fetch(new URL(path, base), {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** The setup wizard's call on `base` for `owner` ({ username, password, email }); asserts its 200. */
export async function setUp(base, owner) {
  const res = await post(base, '/api/auth/application_startup', {
    username: owner.username,
    password: owner.password,
    confirm_password: owner.password,
    baseurl: base,
    email: owner.email,
    timezone: 'UTC',
    license_key: await mintLicense(owner.email),
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

/** A user's sign-in over the API (asserts its 200); answers the API token. */
export async function signIn(base, { username, password }) {
  const res = await post(base, '/api/auth/login', { username, password, loginToken: '', hash: '' });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data.token;
}
