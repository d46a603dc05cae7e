// The crash benchmark's Worker (tests/bench/crash.mjs): the product's Worker unchanged, plus fault
// injection into its bindings (docs/decisions/126) named by the request header x-bench-faults
// (a comma list of queue, d1, d1-ingest, r2) and GET /__bench/stats (this isolate's deliveryStats).
// Loopback only, never deployed.

import type { Env } from '../../worker/env';
import worker from '../../worker/index';
import { deliveryStats } from '../../worker/services/hot-path/ingest-delivery';

const injected = (what: string) => new Error(`injected fault: ${what}`);

/** The bindings with the named stores failing: every call (d1), or only the ingest's batch (d1-ingest). */
function withFaults(env: Env, faults: Set<string>): Env {
  const pass = <T extends object>(target: T, override: (prop: string | symbol) => unknown) =>
    new Proxy(target, {
      get(t, prop) {
        const replaced = override(prop);
        if (replaced !== undefined) return replaced;
        const value = Reflect.get(t, prop, t);
        return typeof value === 'function' ? value.bind(t) : value;
      },
    });
  const queue = faults.has('queue')
    ? pass(env.INGEST_QUEUE, (prop) =>
        prop === 'send' || prop === 'sendBatch'
          ? async () => Promise.reject(injected('queue send'))
          : undefined,
      )
    : env.INGEST_QUEUE;
  const d1 = faults.has('d1') ? 'down' : faults.has('d1-ingest') ? 'ingest' : null;
  const db = d1
    ? pass(env.DB, (prop) => {
        if (prop === 'withSession') return null;
        if (prop === 'batch') return async () => Promise.reject(injected('D1 batch'));
        if (prop === 'prepare' && d1 === 'down')
          return () => {
            throw injected('D1 prepare');
          };
        return undefined;
      })
    : env.DB;
  const bucket = faults.has('r2')
    ? pass(env.BUCKET, (prop) =>
        prop === 'put' ? async () => Promise.reject(injected('R2 put')) : undefined,
      )
    : env.BUCKET;
  return { ...env, INGEST_QUEUE: queue, DB: db, BUCKET: bucket };
}

export default {
  fetch(request, env, ctx) {
    if (new URL(request.url).pathname === '/__bench/stats') return Response.json(deliveryStats);
    const faults = request.headers.get('x-bench-faults');
    const bindings = faults ? withFaults(env, new Set(faults.split(','))) : env;
    return worker.fetch(request, bindings, ctx);
  },
  queue: worker.queue,
  scheduled: worker.scheduled,
} satisfies ExportedHandler<Env>;
