// The parts of a request URL the tracking routes read, parsed in JavaScript. A URL object and
// its URLSearchParams are runtime objects whose every call crosses into native code; on the hot
// path a plain string split of the short query is cheaper (docs/decisions/014-hot-path.md).
// Anything unusual (a malformed percent escape) falls back to URLSearchParams, so answers match.

export class QueryParams {
  private map: Map<string, string> | null = null;

  constructor(private readonly raw: string) {}

  private parsed(): Map<string, string> {
    if (this.map) return this.map;
    const map = new Map<string, string>();
    try {
      for (const pair of this.raw.split('&')) {
        if (!pair) continue;
        const eq = pair.indexOf('=');
        const name = decode(eq < 0 ? pair : pair.slice(0, eq));
        if (!map.has(name)) map.set(name, eq < 0 ? '' : decode(pair.slice(eq + 1)));
      }
    } catch {
      map.clear();
      for (const [name, value] of new URLSearchParams(this.raw)) if (!map.has(name)) map.set(name, value);
    }
    this.map = map;
    return map;
  }

  /** The first value of `name`, as URLSearchParams.get answers it. */
  get(name: string): string | null {
    return this.parsed().get(name) ?? null;
  }

  has(name: string): boolean {
    return this.parsed().has(name);
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.parsed().entries();
  }
}

function decode(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text;
  return decodeURIComponent(text.replace(/\+/g, ' '));
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': ':80', 'https:': ':443' };

export class RequestUrl {
  readonly protocol: string;
  readonly origin: string;
  readonly pathname: string;
  readonly searchParams: QueryParams;

  constructor(raw: string) {
    const schemeEnd = raw.indexOf('://');
    if (schemeEnd < 0) throw new TypeError(`not an absolute URL: ${raw}`);
    const hash = raw.indexOf('#');
    const end = hash < 0 ? raw.length : hash;
    const question = raw.indexOf('?');
    const queryStart = question < 0 || question > end ? end : question;
    let pathStart = raw.indexOf('/', schemeEnd + 3);
    if (pathStart < 0 || pathStart > queryStart) pathStart = queryStart;
    this.protocol = raw.slice(0, schemeEnd + 1).toLowerCase();
    let origin = raw.slice(0, pathStart).toLowerCase();
    const port = DEFAULT_PORTS[this.protocol];
    if (port && origin.endsWith(port)) origin = origin.slice(0, -port.length);
    this.origin = origin;
    this.pathname = pathStart === queryStart ? '/' : raw.slice(pathStart, queryStart);
    this.searchParams = new QueryParams(queryStart < end ? raw.slice(queryStart + 1, end) : '');
  }
}
