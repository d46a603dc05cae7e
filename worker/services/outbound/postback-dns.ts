// Postback hosts are checked where it matters: at send time, on the addresses the name resolves
// to. A name can point anywhere (127.0.0.1.nip.io passes every check by name), and where it
// points can change after the campaign was saved. docs/decisions/044.

/** Answers the IPv4 and IPv6 addresses of a host name; throws when it cannot tell. */
export type HostResolver = (host: string) => Promise<string[]>;

const DEFAULT_DNS_RESOLVER_URL = 'https://cloudflare-dns.com/dns-query';

type DnsJson = { Status?: number; Answer?: { type?: number; data?: string }[] };

/**
 * DNS over HTTPS (the JSON API of Cloudflare's resolver, or DNS_RESOLVER_URL): A and AAAA
 * records. A Worker has no other resolver to ask.
 */
export function dohResolver(baseUrl = DEFAULT_DNS_RESOLVER_URL, fetcher: typeof fetch = fetch): HostResolver {
  return async (host) => {
    const ask = async (type: 'A' | 'AAAA') => {
      const url = `${baseUrl}?name=${encodeURIComponent(host)}&type=${type}`;
      const res = await fetcher(url, {
        headers: { accept: 'application/dns-json' },
        signal: AbortSignal.timeout(3000),
      });
      if (!res.ok) throw new Error(`resolver answered ${res.status}`);
      const body = (await res.json()) as DnsJson;
      // 3 is NXDOMAIN: the name has no addresses. Anything else but 0 is a resolver failure.
      if (body.Status === 3) return [];
      if (body.Status !== 0) throw new Error(`resolver status ${body.Status}`);
      const want = type === 'A' ? 1 : 28;
      return (body.Answer ?? [])
        .filter((a) => a.type === want && typeof a.data === 'string')
        .map((a) => a.data!);
    };
    const [v4, v6] = await Promise.all([ask('A'), ask('AAAA')]);
    return [...v4, ...v6];
  };
}

function ipv4Bytes(ip: string): number[] | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : -1));
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : null;
}

/** Private, loopback, link-local (cloud metadata), shared, reserved, multicast and documentation ranges. */
function blockedIpv4([a, b, c]: number[]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 0 && (c === 0 || c === 2)) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) ||
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113) ||
    a >= 224
  );
}

function ipv6Groups(ip: string): number[] | null {
  let text = ip
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .split('%')[0];
  // An embedded IPv4 tail (::ffff:1.2.3.4) becomes two groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const bytes = ipv4Bytes(v4[1]);
    if (!bytes) return null;
    text = `${text.slice(0, -v4[1].length)}${((bytes[0] << 8) | bytes[1]).toString(16)}:${((bytes[2] << 8) | bytes[3]).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (s: string) =>
    s ? s.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)) : [];
  const head = parse(halves[0]);
  const tail = halves.length === 2 ? parse(halves[1]) : [];
  const fill = 8 - head.length - tail.length;
  if (fill < 0 || (halves.length === 1 && fill !== 0)) return null;
  const groups = [...head, ...Array(fill).fill(0), ...tail];
  return groups.some(Number.isNaN) ? null : groups;
}

function blockedIpv6(g: number[]): boolean {
  const v4 = [g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255];
  if (g.slice(0, 7).every((x) => x === 0) && (g[7] === 0 || g[7] === 1)) return true; // :: and ::1
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return blockedIpv4(v4); // IPv4-mapped
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return blockedIpv4(v4); // NAT64
  if ((g[0] & 0xfe00) === 0xfc00) return true; // unique local (fc00::/7, AWS's fd00:ec2::254)
  if ((g[0] & 0xffc0) === 0xfe80) return true; // link-local
  if ((g[0] & 0xff00) === 0xff00) return true; // multicast
  if (g[0] === 0x2001 && g[1] === 0x0db8) return true; // documentation
  return false;
}

/** True for any address a postback must never reach; unparseable counts as blocked. */
export function isBlockedAddress(ip: string): boolean {
  const v4 = ipv4Bytes(ip);
  if (v4) return blockedIpv4(v4);
  const v6 = ipv6Groups(ip);
  return v6 ? blockedIpv6(v6) : true;
}

export type ResolvedCheck = { ok: true } | { ok: false; blocked: boolean; reason: string };

/** Resolves `host` and refuses it when any of its addresses is in a blocked range. */
export async function checkResolvedHost(host: string, resolve: HostResolver): Promise<ResolvedCheck> {
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch (err) {
    // Not known yet: retried like a network error.
    return {
      ok: false,
      blocked: false,
      reason: `DNS lookup failed: ${err instanceof Error ? err.message : err}`,
    };
  }
  if (addresses.length === 0) return { ok: false, blocked: false, reason: 'DNS: the host has no address' };
  const bad = addresses.find(isBlockedAddress);
  if (bad) return { ok: false, blocked: true, reason: `the host resolves to a private address (${bad})` };
  return { ok: true };
}
