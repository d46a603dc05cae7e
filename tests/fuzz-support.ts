import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { BODY_MESSAGES } from '../worker/lib/body';
import { settleWorkerFetches, workerFetch } from './worker-fetch';

// What both halves of the fuzz suite share (tests/fuzz-api-suite.ts and
// tests/integration/fuzz-tracking.test.ts): the hostile inputs, and the checker that sends a
// request, asserts it is below 500 with no stack trace, and that a refused one left the database
// as it was.

export const HOSTILE = [
  "' OR 1=1 --",
  '"; DROP TABLE campaigns; --',
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  `{{7*7}}${'$'}{7*7}`,
  '\u0000\u001f\u202e',
  'A'.repeat(20_000),
];

export const invalidUtf8 = new Uint8Array([
  0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d,
]);

export type Payload = { name: string; body: BodyInit; type?: string };

/**
 * Bodies that cannot be read (issue 24): each answers 400 with its message on every route that
 * takes a body (docs/decisions/125), and writes nothing.
 */
export const UNREADABLE: (Payload & { message: string })[] = [
  {
    name: 'unterminated multipart',
    body: '--xyz\r\nContent-Disposition: form-data; name="campaignId"\r\n\r\n1',
    type: 'multipart/form-data; boundary=xyz',
    message: BODY_MESSAGES.multipart,
  },
  {
    name: 'multipart without a boundary',
    body: '--xyz\r\nContent-Disposition: form-data; name="campaignId"\r\n\r\n1\r\n--xyz--\r\n',
    type: 'multipart/form-data',
    message: BODY_MESSAGES.noBoundary,
  },
  {
    name: 'broken urlencoded form',
    body: 'campaignId=%zz&name=%E0%A4%A',
    type: 'application/x-www-form-urlencoded',
    message: BODY_MESSAGES.urlencoded,
  },
];

const STACK = /\bat [\w.<>]+ \(|\.ts:\d+:\d+|node_modules|Error: .*\n\s+at /;

// Writes that refused requests make on purpose: failed logins are counted, reset requests are
// recorded whatever the answer, refused conversions are counted (decisions 041, 042).
// Also left out: tables written after the answer by queue consumers of earlier, accepted
// requests (statistics jobs, tracked events and their rollups); the tracking half checks
// its refused conversions directly instead.
const UNWATCHED = new Set([
  'login_failures',
  'password_reset_requests',
  'conversion_rejections',
  'mail_outbox',
  'stats_jobs',
  'ingest_marks',
  'visits',
  'lp_clicks',
  'conversions',
  'postback_log',
]);
// The ingest consumer's rollups, including the token (issue 16), breakdown and filtered-traffic
// rollups and the freshness marks (issue 17).
const ROLLUP = /^(daily_|target_|placement_|token_|breakdown_|filtered_|stats_freshness$)/;

/** Sends fuzz requests and checks what each answer and each refusal did. One per test file. */
export class FuzzChecker {
  /** Requests sent so far; printed by each file (docs/operations.md). */
  cases = 0;
  /** Statuses of the current group. */
  statuses: number[] = [];
  /** The text of the last answer. */
  lastText = '';
  private snapshotSql = '';
  private perRequest = false;

  /**
   * Runs a group of requests with one snapshot before and after: when all were refused, the
   * database must be as it was. When some were accepted, the group runs again with a snapshot
   * around each request, so each refused one is still checked on its own.
   */
  async checkedGroup(run: () => Promise<void>) {
    this.perRequest = false;
    this.statuses = [];
    const before = await this.snapshot();
    await run();
    if (this.statuses.every((s) => s >= 400)) {
      expect(await this.snapshot(), 'a group of refused requests changed the database').toBe(before);
      return;
    }
    this.perRequest = true;
    await run();
    this.perRequest = false;
  }

  async send(method: string, path: string, token: string | null, payload?: Payload) {
    const headers: Record<string, string> = { accept: 'application/json', 'CF-Connecting-IP': '192.0.2.200' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (payload?.type) headers['content-type'] = payload.type;
    const before = this.perRequest ? await this.snapshot() : '';
    // In this isolate, not through SELF.fetch (tests/worker-fetch.ts). What the request left to
    // waitUntil has finished before the snapshot that checks it.
    const res = await workerFetch(`http://tracker.test${path}`, {
      method,
      headers,
      body: method === 'GET' || method === 'HEAD' ? undefined : payload?.body,
      redirect: 'manual',
    });
    const text = await res.text();
    await settleWorkerFetches();
    this.lastText = text;
    this.cases += 1;
    const what = `${method} ${path.slice(0, 80)} ${payload?.name ?? ''} as ${token ? 'user' : 'nobody'}`;
    expect(res.status, `${what}: ${text.slice(0, 300)}`).toBeLessThan(500);
    expect(text, `${what} leaks a stack trace`).not.toMatch(STACK);
    this.statuses.push(res.status);
    if (this.perRequest && res.status >= 400) {
      expect(await this.snapshot(), `${what} (${res.status}) changed the database`).toBe(before);
    }
    return res.status;
  }

  /** Counts and latest changes of every watched table: what a refused request must leave unchanged. */
  private async snapshot(): Promise<string> {
    if (!this.snapshotSql) this.snapshotSql = await snapshotQuery();
    return (await env.DB.prepare(this.snapshotSql).first<{ s: string }>())!.s;
  }
}

async function snapshotQuery(): Promise<string> {
  const tables = (
    await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%'",
    ).all<{ name: string }>()
  ).results.map((r) => r.name);
  const parts: string[] = [];
  for (const t of tables.filter((t) => !UNWATCHED.has(t) && !ROLLUP.test(t))) {
    const cols = (await env.DB.prepare(`PRAGMA table_info("${t}")`).all<{ name: string }>()).results.map(
      (c) => c.name,
    );
    parts.push(`'${t}', (SELECT count(*) FROM "${t}")`);
    if (cols.includes('updated_at')) parts.push(`(SELECT max(updated_at) FROM "${t}")`);
    if (t === 'settings') parts.push(`(SELECT group_concat(key || '=' || value) FROM settings)`);
  }
  return `SELECT json_array(${parts.join(', ')}) AS s`;
}
