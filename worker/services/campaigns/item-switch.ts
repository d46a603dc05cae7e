import type { ItemKind } from '../../../schema/pages-operations-api';
import type { Env } from '../../env';
import { invalidateCompiledCampaign } from '../hot-path/compiled-campaigns';
import { raiseAlert } from './alerts';

// The one way an existing item of a campaign is switched on or off (docs/decisions/032): the
// editor's saves, the statistics tables' switches (one or many), and the auto-optimiser all come
// here, so every switch writes the same way, leaves the same trace and is seen by the next click
// in this isolate (other isolates within the routing cache's few seconds, decision 014).
// New items (editor adds, imports) are created with their flag; they are not switches.

export type { ItemKind };

const TABLES: Record<ItemKind, string> = {
  landing: 'landing_pages',
  offer: 'offer_pages',
  path: 'paths',
  option: 'options',
};

const NOUNS: Record<ItemKind, string> = {
  landing: 'landing page',
  offer: 'offer page',
  path: 'path',
  option: 'option',
};

/** Who switched: a user (the editor, the statistics tables) or the auto-optimiser, with its rule. */
type SwitchActor = { kind: 'user'; userId: number } | { kind: 'optimizer'; reason: string };

export type SwitchRequest = {
  campaignId: number;
  kind: ItemKind;
  ids: readonly number[];
  active: 0 | 1;
  actor: SwitchActor;
  /**
   * Never switch off the campaign's last active landing page (the optimiser's rule). Checked in
   * each statement, so it holds against a concurrent switch too.
   */
  keepOneActive?: boolean;
  /** Statements written in the same transaction before the switch (the editor's other fields). */
  alongside?: D1PreparedStatement[];
  now?: number;
};

export type Switched = { id: number; name: string };

/**
 * Sets the flag of the campaign's live (not deleted) items among `ids`, in one transaction, and
 * answers those whose flag changed. Items of another campaign, deleted ones and those already
 * in the wanted state are left alone. The optimiser's switches are logged in optimizer_log and
 * raise an alert on the campaign; a user's switch is what the user sees.
 */
export async function setItemsActive(env: Pick<Env, 'DB'>, req: SwitchRequest): Promise<Switched[]> {
  const now = req.now ?? Date.now();
  const table = TABLES[req.kind];
  const guard =
    req.keepOneActive && req.active === 0
      ? ` AND (SELECT count(*) FROM ${table} WHERE campaign_id = ?2 AND active = 1 AND deleted = 0) > 1`
      : '';
  // One statement per item: in a batch each sees the ones before it, so the guard counts right.
  const switches = [...new Set(req.ids)].map((id) =>
    env.DB.prepare(
      `UPDATE ${table} SET active = ?3, updated_at = ?4
       WHERE id = ?1 AND campaign_id = ?2 AND deleted = 0 AND active <> ?3${guard} RETURNING id, name`,
    ).bind(id, req.campaignId, req.active, now),
  );
  const alongside = req.alongside ?? [];
  const statements = [...alongside, ...switches];
  if (statements.length === 0) return [];
  const results = await env.DB.batch<Switched>(statements);
  invalidateCompiledCampaign(req.campaignId);
  const changed = results.slice(alongside.length).flatMap((r) => r.results);
  if (req.actor.kind === 'optimizer') await logOptimizerSwitches(env, req, req.actor.reason, changed, now);
  return changed;
}

async function logOptimizerSwitches(
  env: Pick<Env, 'DB'>,
  req: SwitchRequest,
  reason: string,
  changed: Switched[],
  now: number,
) {
  const action = req.active === 1 ? 'activated' : 'deactivated';
  for (const item of changed) {
    if (req.kind === 'landing') {
      await env.DB.prepare(
        'INSERT INTO optimizer_log (campaign_id, landing_id, action, reason, created_at) VALUES (?1, ?2, ?3, ?4, ?5)',
      )
        .bind(req.campaignId, item.id, action, reason, now)
        .run();
    }
    await raiseAlert(env, req.campaignId, {
      type: 'optimizer',
      message: `Auto-optimiser switched ${req.active === 1 ? 'on' : 'off'} ${NOUNS[req.kind]} "${item.name}": ${reason}.`,
      created_at: now,
      key: `optimizer:${req.kind === 'landing' ? '' : `${req.kind}:`}${item.id}:${now}`,
    });
  }
}
