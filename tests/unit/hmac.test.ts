import { describe, expect, it } from 'vitest';
import { hmacSha256, hmacSha256Key, sha256 } from '../../worker/services/hot-path/hmac';

// The hot path's HMAC-SHA256 against the runtime's WebCrypto, which is the reference.

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
const bytes = (n: number) => crypto.getRandomValues(new Uint8Array(n));

describe('sha256 and hmac-sha256', () => {
  it('hashes the FIPS 180-2 examples', () => {
    const enc = new TextEncoder();
    expect(hex(sha256(enc.encode('abc')))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(hex(sha256(new Uint8Array(0)))).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(hex(sha256(enc.encode('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('matches WebCrypto for random keys and messages of 0 to 300 bytes', async () => {
    for (const keyLength of [1, 16, 32, 63, 64, 65, 100]) {
      const key = bytes(keyLength);
      const mine = hmacSha256Key(key);
      const reference = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, [
        'sign',
      ]);
      for (let length = 0; length <= 300; length += keyLength === 32 ? 1 : 7) {
        const message = bytes(length);
        const expected = new Uint8Array(await crypto.subtle.sign('HMAC', reference, message));
        expect(hex(hmacSha256(mine, message))).toBe(hex(expected));
      }
    }
  });
});
