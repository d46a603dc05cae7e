#!/usr/bin/env node
// Two real student installations side by side plus the operator's: three `wrangler dev`
// Workers on free ports (and free inspector ports), each with local D1/R2/Queues of its own
// (--persist-to). Tracked visits and postbacks on each student must show in the operator's
// general mode (through the real cron -> queue -> cache refresh) and detailed mode with the right
// totals; then one student is stopped and must be named as unavailable while the other's
// numbers still show. Needs web/dist (`npm run build`). Run: `npm run test:multi`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  call,
  install,
  NAVIGATE,
  root,
  servers,
  start as startInstallation,
  stop,
  waitFor,
} from '../support/installation.mjs';

const logs = join(root, 'tests/multi/.tmp');
const start = (name, vars = {}) => startInstallation(name, { vars, logs });

/** A campaign with `visits` tracked visits, `lpClicks` LP clicks and `sales` postbacks. */
async function traffic(server, { cpc, payout, visits, lpClicks, sales }) {
  const { token, base } = server;
  const made = await call(base, '/api/add-campaign', {
    token,
    body: { name: `${server.name} campaign`, campaignType: 'landing_page', cpc },
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const campaignId = made.body.data.campaign.campaignData.campaignId;
  await call(base, '/api/add-landing', {
    token,
    body: { campaignId, name: 'LP', url: 'https://lp.example/x' },
  });
  await call(base, '/api/add-offer', {
    token,
    body: { campaignId, name: 'Offer', url: 'https://offer.example/x', payout },
  });
  const links = (await call(base, `/api/campaign?campaignId=${campaignId}`, { token })).body.data.linkpixel;
  const local = (link) => {
    const u = new URL(link);
    return new URL(`${u.pathname}${u.search}`, base).toString();
  };
  for (let i = 0; i < visits; i++) {
    const visit = await fetch(`${local(links.campaignURL).replace(/\?([^=&]+)=[^&]*/, '?$1=')}t${i}`, {
      headers: NAVIGATE,
      redirect: 'manual',
    });
    assert.equal(visit.status, 302);
    const clickId = new URL(visit.headers.get('location')).searchParams.get('clickid');
    if (i < lpClicks) {
      const click = await fetch(`${local(links.lpofferlink_simple)}?clickid=${clickId}`, {
        headers: NAVIGATE,
        redirect: 'manual',
      });
      assert.equal(click.status, 302);
    }
    if (i < sales) {
      // The postback URL the product shows carries the campaign's postback secret.
      const secret = new URL(links.postback).searchParams.get('secret');
      const postback = await fetch(new URL(`/postback?clickid=${clickId}&secret=${secret}`, base));
      assert.equal(postback.status, 200);
    }
  }
  server.campaignId = campaignId;
}

let failed = false;
try {
  mkdirSync(logs, { recursive: true });
  spawnSync('node', ['scripts/dev-setup.mjs'], { cwd: root, stdio: 'inherit' });
  // The three start one after another: on a 2-core machine three wrangler starts at once stall.
  const a = await start('student-a');
  const b = await start('student-b');
  // The students answer on loopback, which the outbound guard refuses (decision 122) except for
  // hosts a development installation is told to trust.
  const operator = await start('operator', {
    OPERATOR_HOST: '127.0.0.1',
    OPERATOR_TIMEOUT_MS: '2000',
    ENVIRONMENT: 'development',
    OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
  });
  console.log(`multi: student A ${a.base}, student B ${b.base}, operator ${operator.base}`);
  for (const s of [a, b, operator]) await install(s);

  // A: 6 visits at $0.50 ($3), 3 LP clicks, 1 sale at $20. B: 4 visits at $1 ($4), 2 sales at $15.
  await traffic(a, { cpc: '0.50', payout: '20', visits: 6, lpClicks: 3, sales: 1 });
  await traffic(b, { cpc: '1.00', payout: '15', visits: 4, lpClicks: 2, sales: 2 });
  const today = (await call(operator.base, '/api/stats-today', { token: operator.token })).body.data.today;
  const range = { start_date: today, end_date: today };

  for (const s of [a, b]) {
    const made = await call(s.base, '/api/masterdashboard-credentials', {
      token: s.token,
      body: { label: 'operator' },
    });
    assert.equal(made.status, 201);
    s.credential = made.body.data.credential;
    // The rollups are written by each installation's own ingest queue.
    await waitFor(async () => {
      const r = await call(s.base, `/api/masterdashboard/reports?start_date=${today}&end_date=${today}`, {
        headers: { authorization: `Bearer ${s.credential}`, 'X-Master-Dashboard': 'edge-tracker-operator' },
      });
      return (
        r.body?.data?.total.visits === (s === a ? 6 : 4) &&
        r.body.data.total.conversions === (s === a ? 1 : 2)
      );
    }, `${s.name}: its tracked numbers did not arrive`);
    const added = await call(operator.base, '/api/operator/installations', {
      token: operator.token,
      body: { name: s.name, domain: s.base, server: 'local', credential: s.credential },
    });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    s.idHash = added.body.data.student.id_hash;
  }

  // Each installation's credential opens that installation only; a user token opens none.
  const guarded = (s, bearer) =>
    call(s.base, `/api/masterdashboard/reports?start_date=${today}&end_date=${today}`, {
      headers: { authorization: `Bearer ${bearer}`, 'X-Master-Dashboard': 'edge-tracker-operator' },
    }).then((r) => r.status);
  assert.deepEqual(
    [
      await guarded(a, b.credential),
      await guarded(b, a.credential),
      await guarded(a, a.token),
      await guarded(a, a.credential),
    ],
    [401, 401, 401, 200],
  );

  // The real cron: one queue message per installation, each refreshing the operator's cache.
  const cron = await fetch(`${operator.base}/__scheduled?cron=${encodeURIComponent('*/5 * * * *')}`);
  assert.equal(cron.status, 200);
  const general = await waitFor(async () => {
    const r = await call(
      operator.base,
      `/api/operator/all-students-reports?start_date=${today}&end_date=${today}`,
      {
        token: operator.token,
      },
    );
    return r.body.data.students.every((s) => s.refreshed_at) ? r.body.data : null;
  }, 'the cron refresh did not fill the cache');
  const byName = Object.fromEntries(general.students.map((s) => [s.name, s.total]));
  for (const [name, expected] of [
    ['student-a', [3, 20, 17, 566.67]],
    ['student-b', [4, 30, 26, 650]],
  ]) {
    const { ad_spend, revenue, net_profit, roi } = byName[name];
    assert.deepEqual([ad_spend, revenue, net_profit, roi], expected, name);
  }
  assert.deepEqual([general.total.ad_spend, general.total.revenue, general.total.conversions], [7, 50, 3]);
  console.log('multi: general mode (cron -> queue -> cache) shows both installations');

  const detailed = await call(operator.base, '/api/operator/students-data', {
    token: operator.token,
    body: { students: [a.idHash, b.idHash], ...range },
  });
  assert.equal(detailed.status, 200, JSON.stringify(detailed.body));
  assert.deepEqual(
    detailed.body.data.students.map((s) => [s.name, s.total.ad_spend, s.total.revenue, s.total.visits]),
    [
      ['student-a', 3, 20, 6],
      ['student-b', 4, 30, 4],
    ],
  );
  assert.deepEqual(detailed.body.data.unavailable, []);
  console.log('multi: detailed mode fans out to both');

  // Student B goes down mid-test.
  await stop(b);
  const partial = await call(operator.base, '/api/operator/students-data', {
    token: operator.token,
    body: { students: [a.idHash, b.idHash], ...range },
  });
  assert.equal(partial.status, 200);
  assert.deepEqual(
    partial.body.data.students.map((s) => [s.name, s.total.ad_spend, s.total.revenue]),
    [['student-a', 3, 20]],
  );
  assert.deepEqual(
    partial.body.data.unavailable.map((u) => [u.name, u.domain]),
    [['student-b', b.base]],
  );
  const refresh = await call(operator.base, '/api/operator/update-student-data', {
    token: operator.token,
    body: { domain: b.base, ...range },
  });
  assert.equal(refresh.status, 502);
  assert.match(refresh.body.message, /^student-b \(http:\/\/127\.0\.0\.1:\d+\) did not answer: /);
  // The general mode still answers from the cache, B's last numbers included.
  const cached = await call(
    operator.base,
    `/api/operator/all-students-reports?start_date=${today}&end_date=${today}`,
    {
      token: operator.token,
    },
  );
  assert.deepEqual(
    cached.body.data.students.map((s) => [s.name, s.total.ad_spend, s.error === null]),
    [
      ['student-a', 3, true],
      ['student-b', 4, false],
    ],
  );
  console.log('multi: with student B stopped, it is named unavailable and A still shows');
  console.log('multi: ok');
} catch (err) {
  failed = true;
  console.error(err);
} finally {
  for (const s of servers) await stop(s);
  for (const s of servers) rmSync(s.state, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
