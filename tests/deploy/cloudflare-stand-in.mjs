// A stand-in of the Cloudflare API (client/v4) for the calls `npm run deploy` makes through
// wrangler: D1 (list, create, query), R2 buckets, Queues and their consumers, Worker secrets,
// the Worker upload (script PUT, or a version plus a deployment once the Worker exists), its
// static assets, workers.dev and cron triggers. Every call is recorded, and the state is kept as
// Cloudflare would keep it, so a second deploy sees what the first one made. Loopback only.
//
// What it cannot show: that Cloudflare accepts the uploaded bundle (its size, its start-up, the
// compatibility date). It stores the upload's metadata and answers as the API does.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

const envelope = (result, extra = {}) => ({ success: true, errors: [], messages: [], result, ...extra });
const failure = (code, message) => ({
  success: false,
  errors: [{ code, message }],
  messages: [],
  result: null,
});

/** Parses a multipart/form-data body into its parts ({name, filename, type, data: Buffer}). */
function multipart(body, contentType) {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType ?? '');
  if (!boundary) return [];
  const sep = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts = [];
  let start = body.indexOf(sep);
  while (start !== -1) {
    const next = body.indexOf(sep, start + sep.length);
    if (next === -1) break;
    const chunk = body.subarray(start + sep.length + 2, next - 2);
    const headerEnd = chunk.indexOf('\r\n\r\n');
    if (headerEnd !== -1) {
      const head = chunk.subarray(0, headerEnd).toString('utf8');
      parts.push({
        name: /name="([^"]*)"/.exec(head)?.[1],
        filename: /filename="([^"]*)"/.exec(head)?.[1],
        type: /content-type:\s*([^\r\n]+)/i.exec(head)?.[1],
        data: chunk.subarray(headerEnd + 4),
      });
    }
    start = next;
  }
  return parts;
}

/**
 * Starts the stand-in on 127.0.0.1:`port`. Returns its base URL (for CLOUDFLARE_API_BASE_URL), the
 * recorded `calls` ({method, path, query, body}), the account's `state` and `close()`.
 */
export async function startCloudflareStandIn({ port, accountId, subdomain = 'stand-in' }) {
  const calls = [];
  const state = {
    d1: new Map(), // name -> { uuid, name, created_at, migrations: [name], queries: [sql] }
    r2: new Map(), // name -> { name, creation_date }
    queues: new Map(), // name -> { queue_id, queue_name, created_on, consumers: [] }
    scripts: new Map(), // name -> { uploads, secrets: Map, bindings, schedules, workersDev, assets: Set }
    pendingAssets: null,
    assetFilesUploaded: 0,
  };
  const now = () => new Date().toISOString();
  const queueJson = (q) => ({
    ...q,
    modified_on: q.created_on,
    producers: [],
    producers_total_count: 0,
    consumers_total_count: q.consumers.length,
  });
  const script = (name) => state.scripts.get(name);
  const deployment = (versions) => ({
    id: randomUUID(),
    created_on: now(),
    source: 'wrangler',
    strategy: 'percentage',
    versions,
  });

  const isSecret = (meta, n) => meta.bindings.some((b) => b.name === n && b.type === 'secret_text');

  /** The Worker upload's metadata: bindings (secrets among them) and the assets' completion token. */
  function applyUpload(name, parts) {
    const meta = JSON.parse(parts.find((p) => p.name === 'metadata')?.data.toString('utf8') ?? '{}');
    // As Cloudflare: a binding name is used once, kept secrets included (a var cannot shadow one).
    const names = (meta.bindings ?? []).map((b) => b.name);
    const kept = [...(script(name)?.secrets.keys() ?? [])];
    const clash = names.find((n, i) => names.indexOf(n) !== i || (kept.includes(n) && !isSecret(meta, n)));
    if (clash)
      return { error: [400, failure(10053, `Uncaught Error: Binding name '${clash}' already in use`)] };
    const s = script(name) ?? {
      uploads: 0,
      secrets: new Map(),
      bindings: [],
      schedules: [],
      workersDev: false,
      assets: new Set(),
      versions: [],
      deployments: [],
    };
    s.uploads += 1;
    for (const b of meta.bindings ?? []) if (b.type === 'secret_text') s.secrets.set(b.name, b.text);
    // Secrets stay across uploads (bindings_inherit); everything else is what this upload says.
    s.bindings = (meta.bindings ?? []).map((b) => (b.type === 'secret_text' ? { ...b, text: undefined } : b));
    s.mainModule = meta.main_module;
    s.modules = parts.filter((p) => p.filename).map((p) => p.filename);
    s.compatibilityDate = meta.compatibility_date;
    // Assets uploaded once stay known, as Cloudflare's content-addressed store keeps them.
    if (state.pendingAssets?.name === name) for (const h of state.pendingAssets.hashes) s.assets.add(h);
    state.pendingAssets = null;
    state.scripts.set(name, s);
    return s;
  }

  /** D1's query endpoint: enough SQL for `wrangler d1 migrations apply` (its table, then each file). */
  function d1Query(db, sql) {
    db.queries.push(sql);
    const meta = { duration: 1, rows_read: 0, rows_written: 0, changes: 0 };
    if (/^\s*CREATE TABLE IF NOT EXISTS d1_migrations/i.test(sql))
      return [{ results: [], success: true, meta }];
    if (/^\s*SELECT \*\s+FROM d1_migrations/i.test(sql)) {
      const results = db.migrations.map((name, i) => ({ id: i + 1, name, applied_at: db.created_at }));
      return [{ results, success: true, meta }];
    }
    for (const m of sql.matchAll(/INSERT INTO d1_migrations \(name\)\s*values \('([^']+)'\)/gi)) {
      db.migrations.push(m[1]);
    }
    return [{ results: [], success: true, meta }];
  }

  async function route(req, body, url) {
    const path = url.pathname.replace(/^\/client\/v4/, '');
    const m = (re) => re.exec(path);
    const json = () => JSON.parse(body.toString('utf8') || '{}');
    const account = m(/^\/accounts\/([^/]+)(\/.*)?$/);
    if (!account) {
      if (path === '/user/tokens/verify') return [200, envelope({ id: 'token', status: 'active' })];
      if (path === '/memberships' || path === '/accounts')
        return [
          200,
          envelope([{ account: { id: accountId, name: 'Stand-in' }, id: accountId, name: 'Stand-in' }]),
        ];
      return null;
    }
    if (account[1] !== accountId) return [403, failure(9109, 'Unauthorized to access requested resource')];
    const rest = account[2] ?? '';
    const method = req.method;
    let p;

    // D1
    if (rest === '/d1/database' && method === 'GET') {
      const all = [...state.d1.values()].map(({ uuid, name, created_at }) => ({
        uuid,
        name,
        created_at,
        version: 'production',
      }));
      const perPage = Number(url.searchParams.get('per_page')) || 10;
      const page = Number(url.searchParams.get('page')) || 1;
      const name = url.searchParams.get('name');
      const list = name ? all.filter((d) => d.name === name) : all;
      return [200, envelope(list.slice((page - 1) * perPage, page * perPage))];
    }
    if (rest === '/d1/database' && method === 'POST') {
      const { name } = json();
      if (state.d1.has(name)) return [400, failure(7502, `A database with that name already exists`)];
      const db = { uuid: randomUUID(), name, created_at: now(), migrations: [], queries: [] };
      state.d1.set(name, db);
      return [200, envelope({ uuid: db.uuid, name, created_in_region: 'WEUR' })];
    }
    p = m(/^\/accounts\/[^/]+\/d1\/database\/([^/]+)(\/query)?$/);
    if (p) {
      const db = [...state.d1.values()].find((d) => d.uuid === p[1] || d.name === p[1]);
      if (!db) return [404, failure(7404, `The database ${p[1]} could not be found`)];
      if (p[2] && method === 'POST') return [200, envelope(d1Query(db, json().sql ?? ''))];
      if (!p[2] && method === 'GET')
        return [200, envelope({ uuid: db.uuid, name: db.name, created_at: db.created_at, num_tables: 0 })];
    }

    // R2
    if (rest === '/r2/buckets' && method === 'GET')
      return [200, envelope({ buckets: [...state.r2.values()] })];
    if (rest === '/r2/buckets' && method === 'POST') {
      const { name } = json();
      if (state.r2.has(name)) return [409, failure(10004, 'The bucket you tried to create already exists.')];
      state.r2.set(name, { name, creation_date: now() });
      return [200, envelope({ name })];
    }
    p = m(/^\/accounts\/[^/]+\/r2\/buckets\/([^/]+)$/);
    if (p && method === 'GET') {
      const bucket = state.r2.get(p[1]);
      return bucket ? [200, envelope(bucket)] : [404, failure(10006, 'The specified bucket does not exist.')];
    }

    // Queues
    if (rest === '/queues' && method === 'GET') {
      const names = url.searchParams.getAll('name');
      const list = [...state.queues.values()].filter(
        (q) => names.length === 0 || names.includes(q.queue_name),
      );
      const page = Number(url.searchParams.get('page')) || 1;
      const perPage = 100;
      const slice = list.slice((page - 1) * perPage, page * perPage).map(queueJson);
      const info = { page, per_page: perPage, count: slice.length, total_count: list.length };
      return [
        200,
        envelope(slice, { result_info: { ...info, total_pages: Math.ceil(list.length / perPage) } }),
      ];
    }
    if (rest === '/queues' && method === 'POST') {
      const { queue_name } = json();
      if (state.queues.has(queue_name))
        return [409, failure(11009, `A queue with name "${queue_name}" already exists.`)];
      const q = { queue_id: randomBytes(16).toString('hex'), queue_name, created_on: now(), consumers: [] };
      state.queues.set(queue_name, q);
      return [200, envelope(queueJson(q))];
    }
    p = m(/^\/accounts\/[^/]+\/queues\/([^/]+)(?:\/consumers(?:\/([^/]+))?)?$/);
    if (p) {
      const q = [...state.queues.values()].find((x) => x.queue_id === p[1]);
      if (!q) return [404, failure(11000, 'Queue does not exist')];
      if (!path.includes('/consumers') && method === 'GET') return [200, envelope(queueJson(q))];
      if (path.endsWith('/consumers') && method === 'GET') return [200, envelope(q.consumers)];
      if (path.endsWith('/consumers') && method === 'POST') {
        const c = { consumer_id: randomBytes(16).toString('hex'), created_on: now(), ...json() };
        c.script = c.script_name;
        q.consumers.push(c);
        return [200, envelope(c)];
      }
      if (p[2] && method === 'PUT') {
        const i = q.consumers.findIndex((c) => c.consumer_id === p[2]);
        if (i === -1) return [404, failure(11000, 'Consumer does not exist')];
        q.consumers[i] = { ...q.consumers[i], ...json() };
        return [200, envelope(q.consumers[i])];
      }
    }

    // Workers: service metadata, secrets, upload, versions and deployments, assets, triggers.
    if (rest === '/workers/subdomain' && method === 'GET') return [200, envelope({ subdomain })];
    p = m(/^\/accounts\/[^/]+\/workers\/services\/([^/]+)$/);
    if (p && method === 'GET') {
      const s = script(p[1]);
      if (!s) return [404, failure(10090, 'This Worker does not exist on your account.')];
      const scriptMeta = { id: p[1], tag: `tag-${p[1]}`, tags: [], last_deployed_from: 'wrangler' };
      return [
        200,
        envelope({ id: p[1], default_environment: { environment: 'production', script: scriptMeta } }),
      ];
    }
    p = m(/^\/accounts\/[^/]+\/workers\/scripts\/([^/]+)(\/.*)?$/);
    if (p) {
      const [, name, sub = ''] = p;
      const s = script(name);
      if (sub === '' && method === 'PUT') {
        const up = applyUpload(name, multipart(body, req.headers['content-type']));
        if (up.error) return up.error;
        const version = randomUUID();
        up.versions.push(version);
        up.deployments.push(deployment([{ version_id: version, percentage: 100 }]));
        return [200, envelope({ id: name, etag: `etag-${up.uploads}`, deployment_id: version })];
      }
      if (sub === '/assets-upload-session' && method === 'POST') {
        const hashes = Object.values(json().manifest ?? {}).map((f) => f.hash);
        const known = s?.assets ?? new Set();
        const missing = hashes.filter((h) => !known.has(h));
        const jwt = `assets-${name}-${randomBytes(8).toString('hex')}`;
        state.pendingAssets = { name, hashes };
        return [200, envelope({ jwt, buckets: missing.length ? [missing] : [] })];
      }
      if (!s) return [404, failure(10007, 'This Worker does not exist on your account.')];
      if (sub === '/secrets' && method === 'GET')
        return [200, envelope([...s.secrets.keys()].map((n) => ({ name: n, type: 'secret_text' })))];
      if (sub === '/secrets' && method === 'PUT') {
        const { name: secretName, text } = json();
        s.secrets.set(secretName, text);
        return [200, envelope({ name: secretName, type: 'secret_text' })];
      }
      if (sub === '/versions' && method === 'POST') {
        const up = applyUpload(name, multipart(body, req.headers['content-type']));
        if (up.error) return up.error;
        const id = randomUUID();
        up.versions.push(id);
        return [200, envelope({ id, number: up.versions.length, resources: { script: { etag: 'etag' } } })];
      }
      if (sub === '/deployments' && method === 'GET')
        return [200, envelope({ deployments: [...s.deployments].reverse() })];
      if (sub === '/deployments' && method === 'POST') {
        s.deployments.push(deployment(json().versions ?? []));
        return [200, envelope(s.deployments.at(-1))];
      }
      if (sub === '/script-settings' && method === 'PATCH') return [200, envelope(json())];
      if (sub === '/settings' && method === 'GET')
        return [200, envelope({ bindings: s.bindings, compatibility_date: s.compatibilityDate })];
      if (sub === '/schedules' && method === 'PUT') {
        s.schedules = json().map((x) => x.cron);
        return [200, envelope({ schedules: s.schedules.map((cron) => ({ cron })) })];
      }
      if (sub === '/subdomain' && method === 'GET')
        return [200, envelope({ enabled: s.workersDev, previews_enabled: false })];
      if (sub === '/subdomain' && method === 'POST') {
        s.workersDev = Boolean(json().enabled);
        return [200, envelope({ enabled: s.workersDev, previews_enabled: false })];
      }
    }
    if (rest === '/workers/assets/upload' && method === 'POST') {
      state.assetFilesUploaded += multipart(body, req.headers['content-type']).length;
      return [200, envelope({ jwt: `completion-${randomBytes(8).toString('hex')}` })];
    }
    return null;
  }

  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url, 'http://127.0.0.1');
      const call = { method: req.method, path: url.pathname.replace(/^\/client\/v4/, ''), query: url.search };
      calls.push(call);
      let answer;
      try {
        answer = await route(req, body, url);
        // A call this stand-in does not know: the deploy test fails on any (calls[].unknown).
        if (!answer) call.unknown = true;
        answer ??= [404, failure(7003, `No route for ${req.method} ${call.path}`)];
      } catch (err) {
        answer = [500, failure(10000, String(err))];
      }
      call.status = answer[0];
      res.writeHead(answer[0], { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer[1]));
    });
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}/client/v4`,
    calls,
    state,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
