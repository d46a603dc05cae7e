// HMAC-SHA256 in plain JavaScript, synchronous, with the key's pads hashed once.
//
// Every tracked click signs a click id. WebCrypto's HMAC is asynchronous and crosses into the
// runtime for each call, which profiling showed costing more than the rest of the id; signing
// ~20 bytes here is two SHA-256 compressions. tests/unit/hmac.test.ts checks the output against
// WebCrypto for random keys and messages of every length up to several blocks
// (docs/decisions/013-click-ids.md).

function fractionBits(x: number): number {
  return Math.floor((x - Math.floor(x)) * 2 ** 32) >>> 0;
}

function primes(count: number): number[] {
  const out: number[] = [];
  for (let n = 2; out.length < count; n++) if (out.every((p) => n % p !== 0)) out.push(n);
  return out;
}

// FIPS 180-4: the first 32 bits of the fractional parts of the cube roots of the first 64 primes,
// and of the square roots of the first 8 primes.
const K = Uint32Array.from(primes(64), (p) => fractionBits(Math.cbrt(p)));
const IV = Uint32Array.from(primes(8), (p) => fractionBits(Math.sqrt(p)));

const W = new Uint32Array(64);

function compress(state: Uint32Array, block: Uint8Array, offset: number): void {
  for (let i = 0; i < 16; i++) {
    const j = offset + i * 4;
    W[i] = ((block[j] << 24) | (block[j + 1] << 16) | (block[j + 2] << 8) | block[j + 3]) >>> 0;
  }
  for (let i = 16; i < 64; i++) {
    const a = W[i - 15];
    const b = W[i - 2];
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    W[i] = (W[i - 16] + s0 + W[i - 7] + s1) >>> 0;
  }
  let a = state[0];
  let b = state[1];
  let c = state[2];
  let d = state[3];
  let e = state[4];
  let f = state[5];
  let g = state[6];
  let h = state[7];
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const ch = (e & f) ^ (~e & g);
    const t1 = (h + S1 + ch + K[i] + W[i]) >>> 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const maj = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (S0 + maj) >>> 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) >>> 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) >>> 0;
  }
  state[0] = (state[0] + a) >>> 0;
  state[1] = (state[1] + b) >>> 0;
  state[2] = (state[2] + c) >>> 0;
  state[3] = (state[3] + d) >>> 0;
  state[4] = (state[4] + e) >>> 0;
  state[5] = (state[5] + f) >>> 0;
  state[6] = (state[6] + g) >>> 0;
  state[7] = (state[7] + h) >>> 0;
}

const TAIL = new Uint8Array(128);
const STATE = new Uint32Array(8);
const INNER = new Uint8Array(32);

/**
 * Hashes `message` onto `state`, which already absorbed `prefixBytes` bytes (whole blocks), and
 * writes the digest into `out`. Reuses module buffers: the hot path allocates nothing here.
 */
function finish(state: Uint32Array, message: Uint8Array, prefixBytes: number, out: Uint8Array): Uint8Array {
  const whole = message.length - (message.length % 64);
  for (let offset = 0; offset < whole; offset += 64) compress(state, message, offset);
  const rest = message.length - whole;
  const length = rest < 56 ? 64 : 128;
  TAIL.fill(0, 0, length);
  TAIL.set(message.subarray(whole), 0);
  TAIL[rest] = 0x80;
  const bits = (prefixBytes + message.length) * 8;
  const high = Math.floor(bits / 2 ** 32);
  for (let i = 0; i < 4; i++) {
    TAIL[length - 8 + i] = (high >>> (24 - 8 * i)) & 0xff;
    TAIL[length - 4 + i] = (bits >>> (24 - 8 * i)) & 0xff;
  }
  compress(state, TAIL, 0);
  if (length === 128) compress(state, TAIL, 64);
  for (let i = 0; i < 8; i++) {
    const word = state[i];
    out[i * 4] = word >>> 24;
    out[i * 4 + 1] = (word >>> 16) & 0xff;
    out[i * 4 + 2] = (word >>> 8) & 0xff;
    out[i * 4 + 3] = word & 0xff;
  }
  return out;
}

export function sha256(message: Uint8Array): Uint8Array {
  return finish(IV.slice(), message, 0, new Uint8Array(32));
}

export type HmacKey = { inner: Uint32Array; outer: Uint32Array };

/** The key's inner and outer pads, each already hashed: the per-message work is two blocks. */
export function hmacSha256Key(key: Uint8Array): HmacKey {
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? sha256(key) : key);
  const inner = IV.slice();
  const outer = IV.slice();
  compress(
    inner,
    block.map((b) => b ^ 0x36),
    0,
  );
  compress(
    outer,
    block.map((b) => b ^ 0x5c),
    0,
  );
  return { inner, outer };
}

/** HMAC-SHA256 of `message`: a new 32-byte array. */
export function hmacSha256(key: HmacKey, message: Uint8Array): Uint8Array {
  STATE.set(key.inner);
  finish(STATE, message, 64, INNER);
  STATE.set(key.outer);
  return finish(STATE, INNER, 64, new Uint8Array(32));
}
