// A fake DNS-over-HTTPS resolver for the tests (the Worker resolves postback hosts at send time,
// docs/decisions/044): DNS_RESOLVER_URL points at https://dns.test/dns-query in vitest.config.ts,
// and this answers it like nip.io does: a name that carries an IPv4 address (127.0.0.1.nip.io,
// x.10-0-0-5.example) resolves to it; every other name to a public documentation-free address.

const PUBLIC_TEST_ADDRESS = '93.184.215.14';

function fakeAddressOf(host: string): string {
  const dotted = /(?:^|\.)(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})\.nip\.io$/.exec(host);
  if (dotted) return dotted[1];
  const dashed = /(?:^|\.)(\d{1,3}-\d{1,3}-\d{1,3}-\d{1,3})(?:\.|$)/.exec(host);
  if (dashed) return dashed[1].replace(/-/g, '.');
  return PUBLIC_TEST_ADDRESS;
}

export function installFakeDns() {
  const next = globalThis.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.hostname !== 'dns.test') return next(input, init);
    const name = url.searchParams.get('name') ?? '';
    const type = url.searchParams.get('type');
    const answer = type === 'A' ? [{ name, type: 1, TTL: 60, data: fakeAddressOf(name) }] : [];
    return new Response(JSON.stringify({ Status: 0, Answer: answer }), {
      headers: { 'content-type': 'application/dns-json' },
    });
  }) as typeof fetch;
}
