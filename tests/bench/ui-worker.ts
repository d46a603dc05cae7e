// The UI benchmark's Worker (tests/bench/ui.mjs): the product's Worker as it is, plus one seeding
// route that writes generated traffic through the real ingest code. Never deployed.
import type { TrackEvent } from '../../schema/tracking';
import type { Env } from '../../worker/env';
import product from '../../worker/index';
import { ingestEvents } from '../../worker/services/ingest/ingest';
import { mix } from './mix';

const DAY = 86_400_000;
const COUNTRIES = [
  'US',
  'DE',
  'FR',
  'GB',
  'CA',
  'AU',
  'BR',
  'IN',
  'ES',
  'IT',
  'NL',
  'SE',
  'PL',
  'MX',
  'JP',
  'KR',
  'ZA',
  'NG',
  'AR',
  'TR',
];
const AGENTS: [string, string][] = [
  [
    'desktop',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  ],
  [
    'desktop',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  ],
  ['desktop', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0'],
  [
    'mobile',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  ],
  [
    'mobile',
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36',
  ],
  [
    'mobile',
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0 Mobile Safari/537.36',
  ],
  [
    'tablet',
    'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  ],
];
const REFERRERS = [
  '',
  'https://news.example/a',
  'https://www.social.example/feed',
  'https://search.example/?q=x',
  'https://blog.example/p/1',
  'android-app://com.example.app',
];
const TARGETS = 2000;

/** Visit i of `total` over the `days` days before `end`, in time order; 2 % convert. */
function eventsFor(i: number, total: number, days: number, end: number, c: number, o: number): TrackEvent[] {
  const id = `u${i}`;
  const at = end - days * DAY + Math.floor((i * days * DAY) / total);
  const [dev, ua] = AGENTS[mix(i ^ 0x1234) % AGENTS.length];
  const out: TrackEvent[] = [
    {
      k: 'v',
      id,
      c,
      p: 0,
      l: 0,
      o,
      at,
      tgt: `t${mix(i) % TARGETS}`,
      kw: '',
      dev,
      cc: COUNTRIES[mix(i ^ 0x9e37) % COUNTRIES.length],
      ref: REFERRERS[mix(i ^ 0x51ed) % REFERRERS.length],
      ua,
      f: null,
      d: 0,
      tok: {},
    } as TrackEvent,
  ];
  if (i % 50 === 0)
    out.push({ k: 'c', id, c, p: 0, l: 0, o, at: at + 60_000, ev: null, tx: '', pay: null, src: 'postback' });
  return out;
}

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/__bench/seed' && request.method === 'POST') {
      const n = (k: string) => Number(url.searchParams.get(k));
      const [from, to, total, days, end, c, o] = [
        'from',
        'to',
        'total',
        'days',
        'end',
        'campaign',
        'offer',
      ].map(n);
      let events = 0;
      for (let i = from; i < to; i += 700) {
        const batch: TrackEvent[] = [];
        for (let j = i; j < Math.min(to, i + 700); j++) batch.push(...eventsFor(j, total, days, end, c, o));
        await ingestEvents(env, batch);
        events += batch.length;
      }
      return Response.json({ events });
    }
    return product.fetch(request, env, ctx);
  },
  queue: product.queue,
  scheduled: product.scheduled,
} satisfies ExportedHandler<Env>;
