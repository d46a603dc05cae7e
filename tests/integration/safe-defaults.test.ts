import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { Env } from '../../worker/env';
import worker from '../../worker/index';
import wranglerToml from '../../wrangler.toml?raw';

// The shipped configuration is production: ENVIRONMENT unset (docs/decisions/040).

async function outboxWith(environment: string | undefined) {
  const ctx = createExecutionContext();
  const bindings = { ...(env as unknown as Env), ENVIRONMENT: environment };
  const res = await worker.fetch(new Request('http://tracker.test/api/dev/outbox'), bindings, ctx);
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: (await res.json()) as { message?: string } };
}

describe('safe defaults', () => {
  it('ships wrangler.toml without ENVIRONMENT, so a deploy as it is runs as production', () => {
    const vars = /\[vars\]([\s\S]*?)\n\[/.exec(wranglerToml)?.[1] ?? '';
    expect(vars).not.toMatch(/^\s*ENVIRONMENT\s*=/m);
  });

  it('never serves the dev outbox when ENVIRONMENT is unset or production', async () => {
    for (const environment of [undefined, '', 'production', 'Development', 'test']) {
      const res = await outboxWith(environment);
      expect(res.status, String(environment)).toBe(404);
      expect(res.body.message).toBe('Not found.');
    }
  });

  it('serves the dev outbox only when ENVIRONMENT is development', async () => {
    const res = await outboxWith('development');
    expect(res.status).toBe(200);
  });
});
