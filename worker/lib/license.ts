import { importJWK, type JWK, jwtVerify } from 'jose';

export type LicenseClaims = { email: string; expiresAt: number; licensee: string };

let cached: { json: string; key: CryptoKey | Uint8Array } | null = null;

async function publicKey(json: string) {
  if (cached?.json === json) return cached.key;
  const key = await importJWK(JSON.parse(json) as JWK, 'EdDSA');
  cached = { json, key };
  return key;
}

/**
 * Verifies a license key offline: an EdDSA-signed JWT from the vendor carrying the
 * licensee's email and an expiry. Answers null for anything that is not a valid, unexpired
 * key for `email` (when given).
 */
export async function verifyLicense(
  publicKeyJson: string,
  licenseKey: string,
  email?: string,
): Promise<LicenseClaims | null> {
  if (!publicKeyJson || !licenseKey) return null;
  try {
    const { payload } = await jwtVerify(licenseKey.trim(), await publicKey(publicKeyJson), {
      algorithms: ['EdDSA'],
      issuer: 'edge-tracker-license',
    });
    const licensed = typeof payload.email === 'string' ? payload.email.toLowerCase() : '';
    if (!licensed || typeof payload.exp !== 'number') return null;
    if (email !== undefined && licensed !== email.trim().toLowerCase()) return null;
    return { email: licensed, expiresAt: payload.exp * 1000, licensee: String(payload.sub ?? licensed) };
  } catch {
    return null;
  }
}
