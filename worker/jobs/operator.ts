import { dayInZone } from '../../schema/dates';
import type { Env } from '../env';
import { refreshInstallation, refreshWindow } from '../services/operator/cache';
import { type FetchLike, timeoutFor } from '../services/operator/fan-out';
import { installationBy } from '../services/operator/registry';
import { outboundPolicy } from '../services/outbound/outbound';
import { getSettings } from '../services/settings/settings';

// The operator's cache refresh (docs/decisions/083): the cron puts one message per student
// installation on the operator queue; each message refreshes one installation and is retried on
// its own when that installation does not answer. Student installations (no OPERATOR_HOST) skip it.

export const OPERATOR_QUEUE = 'tracker-operator';

type RefreshMessage = { installationId: number; from: string; to: string };

/** Cron: one refresh message per registered installation. */
export async function enqueueOperatorRefresh(env: Env): Promise<number> {
  if (!env.OPERATOR_HOST) return 0;
  const { results } = await env.DB.prepare('SELECT id FROM student_installations ORDER BY id').all<{
    id: number;
  }>();
  const window = refreshWindow(dayInZone(Date.now(), (await getSettings(env)).time_zone));
  for (let i = 0; i < results.length; i += 100) {
    await env.OPERATOR_QUEUE.sendBatch(
      results
        .slice(i, i + 100)
        .map((r) => ({ body: { installationId: r.id, ...window } satisfies RefreshMessage })),
    );
  }
  return results.length;
}

export async function consumeOperator(
  batch: MessageBatch<unknown>,
  env: Env,
  _ctx?: ExecutionContext,
  fetchImpl?: FetchLike,
): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      const body = message.body as Partial<RefreshMessage>;
      if (
        typeof body?.installationId !== 'number' ||
        typeof body.from !== 'string' ||
        typeof body.to !== 'string'
      ) {
        message.ack();
        return;
      }
      if (batch.queue.endsWith('-dlq')) {
        // Every retry failed: the error stays recorded in student_refresh for the screen.
        message.ack();
        return;
      }
      let inst: Awaited<ReturnType<typeof installationBy>>;
      try {
        inst = await installationBy(env, 'id', body.installationId);
      } catch {
        message.ack(); // removed since the cron ran
        return;
      }
      const result = await refreshInstallation(env, inst, body.from, body.to, {
        fetch: fetchImpl,
        timeoutMs: timeoutFor(env),
        policy: outboundPolicy(env),
      });
      if (result.ok) message.ack();
      else message.retry({ delaySeconds: 30 });
    }),
  );
}
