// Shared by `npm run license:issue`, the local set-up and the tests' fixtures: the vendor side
// of license keys (an Ed25519 key pair; keys are EdDSA-signed JWTs).
import { exportJWK, generateKeyPair, importJWK, SignJWT } from 'jose';

export async function createKeyPair() {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  return { publicJwk: await exportJWK(publicKey), privateJwk: await exportJWK(privateKey) };
}

export async function issueLicense(privateJwk, { email, days = 365, licensee }) {
  const key = await importJWK(privateJwk, 'EdDSA');
  return new SignJWT({ email: email.toLowerCase() })
    .setProtectedHeader({ alg: 'EdDSA' })
    .setIssuer('edge-tracker-license')
    .setSubject(licensee ?? email.toLowerCase())
    .setIssuedAt()
    .setExpirationTime(`${days}d`)
    .sign(key);
}
