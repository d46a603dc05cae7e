import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import type { TreeRow } from '../../worker/services/campaigns/campaign-tree';
import { api } from '../factories/api';

// What the campaigns list's tests (campaign-list.test.ts, campaign-list-delete.test.ts) read: the
// list as a user sees it, its ids, and one campaign's row in D1.

export async function list(token: string, dir = 0, includeDeleted = 0) {
  const res = await api(`/api/campaign?dir=${dir}&includeDeleted=${includeDeleted}`, { token });
  expect(res.status).toBe(200);
  return res.body.data as { result: any[]; currentDir: { campaignId: number; dir: number; name: string } };
}

export const ids = (rows: { campaignId: number }[]) => rows.map((r) => r.campaignId);

export const row = (id: number) =>
  env.DB.prepare(
    'SELECT id, name, is_dir, parent_id, deleted, deleted_at, created_by FROM campaigns WHERE id = ?1',
  )
    .bind(id)
    .first<TreeRow>();
