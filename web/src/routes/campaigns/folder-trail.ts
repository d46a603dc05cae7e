// The path from the top level to a folder, for the breadcrumb. The list answer names the open
// folder and its parent (currentDir); the folders above are looked up once and remembered.
import { useEffect, useState } from 'react';
import { getCampaignList } from './api';

export type Crumb = { campaignId: number; name: string };

type Known = { name: string; dir: number };
const known = new Map<number, Known>();

/** Remembers folder names and parents seen in list answers. */
export function rememberFolders(
  rows: readonly { campaignId: number; name: string; is_dir: number; dir: number }[],
) {
  for (const r of rows) if (r.is_dir === 1) known.set(r.campaignId, { name: r.name, dir: r.dir });
}

export function rememberFolder(campaignId: number, name: string, dir: number) {
  if (campaignId) known.set(campaignId, { name, dir });
}

export function forgetFolder(campaignId: number) {
  known.delete(campaignId);
}

async function lookUp(id: number): Promise<Known | null> {
  const hit = known.get(id);
  if (hit) return hit;
  try {
    const answer = await getCampaignList(id);
    const found = { name: answer.currentDir.name, dir: answer.currentDir.dir };
    known.set(id, found);
    return found;
  } catch {
    return null;
  }
}

/** Crumbs above `dir` (top level first, `dir` itself last); [] at the top level. */
export function useFolderTrail(dir: number, current?: { campaignId: number; dir: number; name: string }) {
  const [trail, setTrail] = useState<Crumb[]>([]);
  useEffect(() => {
    if (current && current.campaignId === dir && dir !== 0) rememberFolder(dir, current.name, current.dir);
    let cancelled = false;
    (async () => {
      const crumbs: Crumb[] = [];
      let id = dir;
      for (let depth = 0; id && depth < 50; depth++) {
        const folder = await lookUp(id);
        if (!folder) break;
        crumbs.unshift({ campaignId: id, name: folder.name });
        id = folder.dir;
      }
      if (!cancelled) setTrail(crumbs);
    })();
    return () => {
      cancelled = true;
    };
  }, [dir, current]);
  return trail;
}
