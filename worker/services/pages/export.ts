import { LANDING_CSV_COLUMNS, OFFER_CSV_COLUMNS } from '../../../schema/pages-operations-api';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { csvLine } from '../../lib/csv';
import { slug, storeZip } from '../../lib/zip';
import { type CampaignRow, campaignForUser, listLandings, listOffers } from '../campaigns';
import { checkOwned } from './items';
import { agentNames, type Lookups, lookupsWithDeleted } from './rows';

// The landing and offer exports: the selected items as the upload's CSV (so an export imports
// unchanged) with a small manifest, in a ZIP in R2; each answers a short-lived signed link.

type ExportKind = {
  kind: 'landing' | 'offer';
  what: string;
  file: string;
  manifestKind: string;
  columns: readonly string[];
};

const LANDINGS: ExportKind = {
  kind: 'landing',
  what: 'landing-pages',
  file: 'landings.csv',
  manifestKind: 'landings',
  columns: LANDING_CSV_COLUMNS,
};
const OFFERS: ExportKind = {
  kind: 'offer',
  what: 'offer-pages',
  file: 'offers.csv',
  manifestKind: 'offers',
  columns: OFFER_CSV_COLUMNS,
};

/** Writes the selected items of `spec.kind` as CSV lines made by `cells`. */
async function exportItems<T>(
  env: Env,
  user: AuthUser,
  campaignId: number,
  ids: number[],
  spec: ExportKind,
  list: (campaign: CampaignRow) => Promise<T[]>,
  idOf: (row: T) => number,
  cells: (row: T, l: Lookups) => unknown[],
) {
  const campaign = await campaignForUser(env, user, campaignId);
  await checkOwned(env, spec.kind, campaign.id, ids);
  const l = await lookupsWithDeleted(env, campaign);
  const wanted = new Set(ids);
  const rows = (await list(campaign)).filter((r) => wanted.has(idOf(r)));
  let csv = csvLine([...spec.columns]);
  for (const r of rows) csv += csvLine(cells(r, l));
  const manifest = {
    kind: spec.manifestKind,
    version: 1,
    campaignId: campaign.id,
    campaign: campaign.name,
    count: rows.length,
    columns: spec.columns,
    exportedAt: new Date().toISOString(),
  };
  const name = slug(campaign.name);
  return storeZip(
    env,
    `exports/${spec.what}/${campaign.id}/${crypto.randomUUID()}.zip`,
    `campaign-${campaign.id}${name ? `-${name}` : ''}-${spec.what}.zip`,
    { [spec.file]: csv, 'manifest.json': `${JSON.stringify(manifest, null, 2)}\n` },
  );
}

const nameOf = (byId: Map<number, string>, id: number | null) => (id ? (byId.get(id) ?? '') : '');

/** The selected landing pages as landings.csv (the upload's columns) in a ZIP in R2; answers the signed link. */
export function exportLandings(env: Env, user: AuthUser, campaignId: number, ids: number[]) {
  return exportItems(
    env,
    user,
    campaignId,
    ids,
    LANDINGS,
    (campaign) => listLandings(env, campaign.id, 1),
    (r) => r.landingPageId,
    (r, l) => [r.name, r.url, r.share, nameOf(l.pathById, r.pathId), agentNames(r.agents, l), r.active],
  );
}

/** The selected offers as offers.csv (the upload's columns) in a ZIP in R2; answers the signed link. */
export function exportOffers(env: Env, user: AuthUser, campaignId: number, ids: number[]) {
  return exportItems(
    env,
    user,
    campaignId,
    ids,
    OFFERS,
    (campaign) => listOffers(env, campaign.id, 1),
    (r) => r.offerPageId,
    (r, l) => [
      r.name,
      r.url,
      r.share,
      r.payout,
      nameOf(l.pathById, r.pathId),
      nameOf(l.optionById, r.optionId),
      r.postback,
      agentNames(r.agents, l),
      r.active,
      r.liConversionName,
      r.rotator_participant_email,
    ],
  );
}
