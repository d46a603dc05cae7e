#!/usr/bin/env node
// Issue 24, re-run over real HTTP: one fresh installation (`wrangler dev`, its own --persist-to
// state, ENVIRONMENT=development and no OUTBOUND_ALLOW_HOSTS), an admin, two coaches and two
// students (one per coach), and each attack of the issue made as the role that made it. Prints
// attack → expected → got and exits 1 when any attack succeeds (2 when the probe itself could not
// run). Every request goes to 127.0.0.1; the run is bounded (RUN_LIMIT_MS). Needs web/dist
// (`npm run build`). Run: `npm run probe:security`. See docs/operations.md, "Security probe".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { freePort } from '../../scripts/free-port.mjs';
import {
  ADMIN,
  install,
  NAVIGATE,
  call as rawCall,
  root,
  servers,
  start,
  stop,
} from '../support/installation.mjs';
import { quietEnv } from '../support/wrangler.mjs';

const RUN_LIMIT_MS = 170_000;
const CALL_TIMEOUT_MS = 15_000;
const CAP = 10;
const PARALLEL = 40;
const logs = join(root, 'tests/security/.tmp');

const overall = setTimeout(() => {
  console.error(`probe: gave up after ${RUN_LIMIT_MS / 1000} s`);
  process.exit(2);
}, RUN_LIMIT_MS);
overall.unref();

const call = (base, path, opts = {}) =>
  rawCall(base, path, { ...opts, signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The table: one row per attack. `ok` false means the attack succeeded (or was not refused as expected). */
const rows = [];
function record(attack, role, expected, got, ok) {
  rows.push({ attack, role, expected, got, ok });
}
const brief = (r) => {
  const msg = r.body?.message ?? r.body?.errors?.message?.[0] ?? '';
  return `${r.status}${msg ? ` ${String(msg).slice(0, 60)}` : ''}`;
};

// The installation must not trust loopback: no OUTBOUND_ALLOW_HOSTS anywhere wrangler reads vars.
function assertNoAllowHosts() {
  for (const file of ['.dev.vars', '.env']) {
    const p = join(root, file);
    if (existsSync(p) && /^\s*OUTBOUND_ALLOW_HOSTS\s*=/m.test(readFileSync(p, 'utf8')))
      throw new Error(`${file} sets OUTBOUND_ALLOW_HOSTS; the probe needs the guard's production rules`);
  }
}

// The probe's own loopback server: a "secret" page the SSRF attacks aim at (any hit on it means the
// server read it) and a fake Facebook Graph whose code exchange answers an attacker's token (any
// hit on it from a forged state means the state was not checked).
const SECRET_MARK = `probe-secret-${Math.random().toString(36).slice(2)}`;
let secretHits = 0;
let graphHits = 0;
const probeServer = createServer((req, res) => {
  if (req.url?.startsWith('/graph/')) {
    graphHits += 1;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ access_token: 'attacker-token', token_type: 'bearer', expires_in: 3600 }));
    return;
  }
  secretHits += 1;
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end(`<html><body><h1 data-element="leak">${SECRET_MARK}</h1></body></html>`);
});

async function makeUser(server, role, n) {
  const username = `${role}${n}`;
  const password = 'Probe-pass-2027';
  const made = await call(server.base, '/api/registeruser', {
    token: server.token,
    body: { username, email: `${username}@example.com`, password, password_confirmation: password, role },
  });
  if (made.status !== 201) throw new Error(`registeruser ${username}: ${brief(made)}`);
  const login = await call(server.base, '/api/auth/login', {
    body: { username, password, loginToken: '', hash: '' },
  });
  if (login.status !== 200) throw new Error(`login ${username}: ${brief(login)}`);
  return { id: made.body.data.user.id, username, token: login.body.data.token };
}

async function created(server, token, path, body, pick) {
  const r = await call(server.base, path, { token, body });
  if (r.status !== 201) throw new Error(`${path}: ${brief(r)} ${JSON.stringify(r.body).slice(0, 300)}`);
  return pick(r.body.data);
}

/** A campaign with a landing page and an offer; answers its id and tracking links. */
async function campaignOf(server, token, name, extra = {}) {
  const campaignId = await created(
    server,
    token,
    '/api/add-campaign',
    { name, campaignType: 'landing_page', ...extra },
    (d) => d.campaign.campaignData.campaignId,
  );
  await created(
    server,
    token,
    '/api/add-landing',
    { campaignId, name: 'LP', url: 'https://lp.example/x' },
    (d) => d.landing,
  );
  await created(
    server,
    token,
    '/api/add-offer',
    { campaignId, name: 'Offer', url: 'https://offer.example/x', payout: '10' },
    (d) => d.offer,
  );
  const detail = await call(server.base, `/api/campaign?campaignId=${campaignId}`, { token });
  return { campaignId, links: detail.body.data.linkpixel };
}

/** One tracked visit of a campaign: answers its click id. */
async function clickOf(server, campaign, n) {
  const u = new URL(campaign.links.campaignURL);
  const visit = await fetch(new URL(`${u.pathname}${u.search}t${n}`, server.base), {
    headers: NAVIGATE,
    redirect: 'manual',
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
  });
  await visit.arrayBuffer();
  const location = visit.headers.get('location');
  const clickId = location && new URL(location).searchParams.get('clickid');
  if (visit.status !== 302 || !clickId)
    throw new Error(`visit of campaign ${campaign.campaignId}: ${visit.status}`);
  return clickId;
}

/** Conversions and revenue of a campaign today, as its owner sees them (quick stats, from the rollups). */
async function conversionsOf(server, token, campaignId, today) {
  const r = await call(server.base, '/api/quick-stats-v2', {
    token,
    body: { campaignId, start_date: today, end_date: today },
  });
  if (r.status !== 200) throw new Error(`quick-stats-v2 ${campaignId}: ${brief(r)}`);
  const conversions = r.body.data.conversions.reduce((s, d) => s + Number(d.conversions), 0);
  const revenue = r.body.data.visitors.reduce((s, d) => s + Number(d.revenue), 0);
  return { conversions, revenue };
}

async function postback(server, { clickid, payout, txid, secret }) {
  const q = new URLSearchParams({ clickid, payout: String(payout), txid, secret: secret ?? '' });
  const res = await fetch(new URL(`/postback?${q}`, server.base), {
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
  });
  const text = await res.text();
  let body = null;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, body };
}

async function balanceOf(server, userId) {
  const r = await call(server.base, '/api/get-balance', { token: server.token, body: { userId } });
  if (r.status !== 200) throw new Error(`get-balance ${userId}: ${brief(r)}`);
  return JSON.stringify(r.body.data.balance);
}

async function probe(server, port) {
  const { base } = server;
  const today = (await call(base, '/api/stats-today', { token: server.token })).body.data.today;
  const admin = { id: null, token: server.token };
  const coach1 = await makeUser(server, 'coach', 1);
  const coach2 = await makeUser(server, 'coach', 2);
  const student1 = await makeUser(server, 'student', 1);
  const student2 = await makeUser(server, 'student', 2);
  for (const [student, coach] of [
    [student1, coach1],
    [student2, coach2],
  ]) {
    const r = await call(base, `/api/users/${student.id}/coach`, {
      method: 'PUT',
      token: admin.token,
      body: { coachId: coach.id },
    });
    if (r.status !== 200) throw new Error(`coach of ${student.username}: ${brief(r)}`);
  }
  admin.id = (await call(base, '/api/user', { token: admin.token })).body.data.user.id;

  // ---- 1. A student converts another student's click ----------------------------------------
  const own1 = await campaignOf(server, student1.token, 'Student 1 campaign');
  const victim = await campaignOf(server, student2.token, 'Student 2 campaign');
  const victimClick = await clickOf(server, victim, 0);
  const controlClick = await clickOf(server, victim, 1);
  const secret1 = (
    await call(base, `/api/campaigns/${own1.campaignId}/postback-secret`, { token: student1.token })
  ).body.data.secret;
  const secret2 = (
    await call(base, `/api/campaigns/${victim.campaignId}/postback-secret`, { token: student2.token })
  ).body.data.secret;
  const forged = await postback(server, { clickid: victimClick, payout: 99999, txid: 'X', secret: secret1 });
  record(
    '1a postback on student 2 click with own campaign secret',
    'student 1',
    '403',
    brief(forged),
    forged.status === 403,
  );
  for (const [role, token] of [
    ['student 1', student1.token],
    ['coach 1', coach1.token],
    ['nobody', undefined],
  ]) {
    const r = await call(base, '/api/postback-secret', { token });
    record(
      '1b read installation secret',
      role,
      token ? '403' : '401',
      brief(r),
      r.status === (token ? 403 : 401) && !r.body?.data?.secret,
    );
    if (r.body?.data?.secret) {
      const used = await postback(server, {
        clickid: victimClick,
        payout: 99999,
        txid: 'X2',
        secret: r.body.data.secret,
      });
      record('1b postback with the secret read', role, '403', brief(used), used.status === 403);
    }
  }
  const installationSecret = (await call(base, '/api/postback-secret', { token: admin.token })).body?.data
    ?.secret;
  const withInstallation = await postback(server, {
    clickid: victimClick,
    payout: 99999,
    txid: 'X3',
    secret: installationSecret,
  });
  record(
    '1b postback with installation secret (new install: no grace)',
    'nobody',
    '403',
    brief(withInstallation),
    withInstallation.status === 403,
  );
  // The control: the campaign's own secret still converts (so "nothing stored" below means something).
  const control = await postback(server, { clickid: controlClick, payout: 7, txid: 'C1', secret: secret2 });
  if (control.status !== 200) throw new Error(`control postback with the right secret: ${brief(control)}`);

  // ---- 2. 40 parallel postbacks for one click, cap 10 ---------------------------------------
  const capped = await campaignOf(server, student2.token, 'Student 2 capped campaign');
  const capClick = await clickOf(server, capped, 0);
  const capSecret = (
    await call(base, `/api/campaigns/${capped.campaignId}/postback-secret`, { token: student2.token })
  ).body.data.secret;
  const answers = await Promise.all(
    Array.from({ length: PARALLEL }, (_, i) =>
      postback(server, { clickid: capClick, payout: 100, txid: `par-${i}`, secret: capSecret }),
    ),
  );
  const byStatus = {};
  for (const a of answers) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
  // Drain: poll until the count has stayed put for 3 s (at most 40 s).
  let counted = { conversions: -1 };
  let stableSince = Date.now();
  const drainDeadline = Date.now() + 40_000;
  while (Date.now() < drainDeadline) {
    const now = await conversionsOf(server, student2.token, capped.campaignId, today);
    if (now.conversions !== counted.conversions) {
      counted = now;
      stableSince = Date.now();
    } else if (now.conversions > 0 && Date.now() - stableSince > 3000) break;
    await sleep(500);
  }
  const answered = Object.entries(byStatus)
    .map(([s, n]) => `${n}x${s}`)
    .join(' ');
  record(
    `2 ${PARALLEL} parallel postbacks, one click, cap ${CAP}`,
    'network (student 2 secret)',
    `${CAP} conversions`,
    `${counted.conversions} conversions ($${counted.revenue}); answers ${answered}`,
    counted.conversions === CAP,
  );
  // Attack 1's check, after the queue drained: only the control conversion on student 2's campaign.
  const victimStats = await conversionsOf(server, student2.token, victim.campaignId, today);
  record(
    '1 conversions on student 2 campaign after forgeries',
    'student 2 (reads)',
    '1 conversion ($7, the control)',
    `${victimStats.conversions} conversions ($${victimStats.revenue})`,
    victimStats.conversions === 1 && victimStats.revenue === 7,
  );

  // ---- 3. SSRF -------------------------------------------------------------------------------
  const ssrf = await campaignOf(server, student1.token, 'Student 1 SSRF campaign');
  for (const url of [
    `http://127.0.0.1:${port}/secret`,
    'http://169.254.169.254/latest/meta-data/',
    `http://[::1]:${port}/secret`,
    `http://localhost:${port}/secret`,
  ]) {
    const landing = await call(base, '/api/add-landing', {
      token: student1.token,
      body: { campaignId: ssrf.campaignId, name: 'Inward', url },
    });
    const saved = landing.body?.data?.landing?.url ?? url;
    const q = new URLSearchParams({ campaignId: String(ssrf.campaignId), url: saved });
    const hitsBefore = secretHits;
    const read = await call(base, `/api/landing/get-landing-elements-data?${q}`, { token: student1.token });
    const leaked = read.text.includes(SECRET_MARK) || (read.body?.data?.variations ?? []).length > 0;
    const error = read.body?.data?.error ?? read.body?.message ?? '';
    record(
      `3 read landing ${url.replace(String(port), '<port>')}`,
      'student 1',
      'error, not read',
      `${read.status} ${leaked ? 'CONTENT READ' : String(error).slice(0, 55)}`,
      !leaked && Boolean(error) && secretHits === hitsBefore,
    );
  }
  for (const domain of ['http://127.0.0.1', 'http://[::1]', 'http://169.254.169.254']) {
    const r = await call(base, '/api/operator/installations', {
      token: admin.token,
      body: { name: `inward ${domain}`, domain, server: 'local', credential: 'probe-credential' },
    });
    record(`3 operator registry domain ${domain}`, 'admin', '422', brief(r), r.status === 422);
  }
  record('3 loopback secret server requests', '-', '0', String(secretHits), secretHits === 0);

  // ---- 4. Forged Facebook OAuth state (Facebook configured, its Graph faked on the loopback) ----
  const fbState = async (user) => {
    const token = await call(base, '/api/auth/get-fb-token', { token: user.token });
    return token.body?.data?.status === 'active' ? 'STORED' : (token.body?.data?.status ?? brief(token));
  };
  const coach2Url = (await call(base, '/api/facebook/status', { token: coach2.token })).body?.data?.auth_url;
  const coach2State = coach2Url ? new URL(coach2Url).searchParams.get('state') : null;
  if (!coach2State) throw new Error('GET /api/facebook/status answered no dialog URL with a state');
  for (const [what, role, user, state] of [
    ['forged state 999.forged', 'student 1', student1, '999.forged'],
    ['forged state 999.forged', 'coach 1', coach1, '999.forged'],
    ["coach 2's live state", 'student 1', student1, coach2State],
  ]) {
    const hitsBefore = graphHits;
    const r = await call(base, '/api/auth/set-fb-token', {
      token: user.token,
      body: { code: 'anything', state },
    });
    const stored = await fbState(user);
    record(
      `4 set-fb-token with ${what}`,
      role,
      '4xx, no exchange, no token',
      `${brief(r)}; exchanges ${graphHits - hitsBefore}; token ${stored}`,
      r.status >= 400 && r.status < 500 && graphHits === hitsBefore && stored !== 'STORED',
    );
  }
  // The control: coach 2's own state still connects through the fake (so "no exchange" means something).
  const own = await call(base, '/api/auth/set-fb-token', {
    token: coach2.token,
    body: { code: 'anything', state: coach2State },
  });
  if (own.status !== 200 || (await fbState(coach2)) !== 'STORED')
    throw new Error(`control connect with coach 2's own state: ${brief(own)}`);

  // ---- 5. Wallet credits -----------------------------------------------------------------------
  const watched = { admin: admin.id, 'coach 1': coach1.id, 'coach 2': coach2.id, 'student 2': student2.id };
  const before = {};
  for (const [name, id] of Object.entries(watched)) before[name] = await balanceOf(server, id);
  for (const [target, userId] of [
    ['self', undefined],
    ['admin', admin.id],
    ['coach 2', coach2.id],
    ['student 2 (not theirs)', student2.id],
  ]) {
    const r = await call(base, '/api/update-balance', {
      token: coach1.token,
      body: { cpc: '1000000000', ...(userId ? { userId } : {}) },
    });
    record(`5 credit 1e9 to ${target}`, 'coach 1', '403/422', brief(r), r.status === 403 || r.status === 422);
  }
  const nobodyCredit = await call(base, '/api/update-balance', { body: { cpc: '100', userId: student2.id } });
  record('5 credit 100 to student 2', 'nobody', '401', brief(nobodyCredit), nobodyCredit.status === 401);
  const studentCredit = await call(base, '/api/update-balance', {
    token: student1.token,
    body: { cpc: '100' },
  });
  record('5 credit 100 to self', 'student 1', '403', brief(studentCredit), studentCredit.status === 403);
  const big = await call(base, '/api/update-balance', {
    token: admin.token,
    body: { cpc: '20000', userId: student1.id },
  });
  record('5 credit $20,000 to student 1', 'admin', '422', brief(big), big.status === 422);
  const changed = [];
  for (const [name, id] of Object.entries(watched))
    if ((await balanceOf(server, id)) !== before[name]) changed.push(name);
  const s1Balance = JSON.parse(await balanceOf(server, student1.id));
  if (Number(s1Balance.cpc) !== 0) changed.push('student 1');
  record(
    '5 balances after the attempts',
    'admin (reads)',
    'unchanged',
    changed.length ? `CHANGED: ${changed.join(', ')}` : 'unchanged',
    changed.length === 0,
  );

  // ---- 6. Malformed multipart ------------------------------------------------------------------
  const malformed = '--xyz\r\nContent-Disposition: form-data; name="name"\r\n\r\nunterminated';
  for (const [route, role, token] of [
    ['/api/add-campaign', 'student 1', student1.token],
    ['/api/update-balance', 'coach 1', coach1.token],
    ['/api/add-campaign', 'nobody', undefined],
    ['/postback', 'nobody', undefined],
  ]) {
    const res = await fetch(new URL(route, base), {
      method: 'POST',
      headers: {
        'content-type': 'multipart/form-data; boundary=xyz',
        accept: 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: malformed,
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    await res.arrayBuffer();
    record(`6 malformed multipart to POST ${route}`, role, '400', String(res.status), res.status === 400);
  }

  // ---- 7. Rotator report email guessing --------------------------------------------------------
  const rotator = await created(
    server,
    admin.token,
    '/api/add-campaign',
    { name: 'Probe rotator', campaignType: 'rotator' },
    (d) => d.campaign.campaignData.campaignId,
  );
  const offer = await created(
    server,
    admin.token,
    '/api/add-offer',
    {
      campaignId: rotator,
      name: 'Carol',
      url: 'https://offer.example/c',
      payout: '1',
      rotator_participant_email: 'carol@example.com',
    },
    (d) => d.offer.offerPageId,
  );
  let throttled = null;
  let guesses = 0;
  const seen = [];
  while (guesses < 12 && !throttled) {
    guesses += 1;
    const res = await fetch(
      new URL(`/api/rotators/reports/${offer}?email=guess${guesses}%40example.com`, base),
      { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) },
    );
    await res.arrayBuffer();
    seen.push(res.status);
    if (res.status === 429) throttled = res.headers.get('retry-after');
    else if (res.status !== 404) break;
  }
  record(
    '7 wrong report emails for one offer',
    'nobody',
    '404 x5, then 429 + Retry-After',
    `${seen.join(',')}${throttled ? ` Retry-After: ${throttled}` : ''}`,
    seen.length === 6 && seen.slice(0, 5).every((s) => s === 404) && Number(throttled) >= 1,
  );
}

function printTable() {
  const head = ['', 'attack', 'role', 'expected', 'got'];
  const lines = rows.map((r) => [r.ok ? 'ok' : 'FAIL', r.attack, r.role, r.expected, r.got]);
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells) => cells.map((c, i) => c.padEnd(widths[i])).join(' | ');
  console.log(fmt(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const l of lines) console.log(fmt(l));
}

let exitCode = 0;
try {
  mkdirSync(logs, { recursive: true });
  spawnSync('node', ['scripts/dev-setup.mjs'], { cwd: root, stdio: 'inherit' });
  assertNoAllowHosts();
  const env = { ...quietEnv };
  delete env.OUTBOUND_ALLOW_HOSTS;
  const port = await freePort();
  await new Promise((r) => probeServer.listen(port, '127.0.0.1', r));
  const server = await start('probe', {
    logs,
    env,
    vars: {
      ENVIRONMENT: 'development',
      OPERATOR_HOST: '127.0.0.1',
      FACEBOOK_APP_ID: 'probe-app',
      FACEBOOK_APP_SECRET: 'probe-app-secret',
      FACEBOOK_API_URL: `http://127.0.0.1:${port}/graph`,
      FACEBOOK_DIALOG_URL: `http://127.0.0.1:${port}/dialog`,
    },
    sql: [`INSERT OR REPLACE INTO settings (key, value) VALUES ('conversion_cap_per_click', '${CAP}')`],
  });
  console.log(`probe: installation ${server.base} (owner ${ADMIN.username}), loopback secret on :${port}`);
  await install(server);
  await probe(server, port);
  printTable();
  const failed = rows.filter((r) => !r.ok);
  if (failed.length) {
    exitCode = 1;
    console.error(`probe: ${failed.length} attack(s) not refused as expected`);
  } else console.log(`probe: all ${rows.length} attacks refused`);
} catch (err) {
  exitCode = 2;
  if (rows.length) printTable();
  console.error('probe: could not run:', err);
} finally {
  probeServer.close();
  for (const s of servers) await stop(s);
  for (const s of servers) rmSync(s.state, { recursive: true, force: true });
}
process.exit(exitCode);
