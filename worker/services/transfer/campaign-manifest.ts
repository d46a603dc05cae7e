import type { z } from 'zod';
import {
  addCampaignSchema,
  addLandingSchema,
  addOfferSchema,
  addOptionSchema,
  addPathSchema,
  CAMPAIGN_MESSAGES,
  extraTokenInput,
} from '../../../schema/campaign-api';
import {
  LIST_MESSAGES as M,
  MANIFEST_VERSION,
  MAX_IMPORT_CAMPAIGNS,
  MAX_IMPORT_ITEMS,
  type Manifest,
  manifestSchema,
} from '../../../schema/campaign-list-api';
import { agents, MAX_EXTRA_TOKENS } from '../../../schema/campaigns';
import type { Env } from '../../env';
import { getDb } from '../../lib/db';
import { uploadError } from '../../lib/zip';
import { campaignRuleProblem } from '../campaigns/campaign-rules';
import { firstIssue, printable } from './campaign-files';
import { campaignColumns, emptyPlan, type Plan } from './campaign-plans';

/** Checks a manifest's campaigns and items by the editor's rules and turns them into plans. */
export async function plansFromManifest(env: Pick<Env, 'DB'>, raw: unknown): Promise<Plan[]> {
  const version = (raw as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > MANIFEST_VERSION) throw uploadError(M.manifestNewer);
  const shape = manifestSchema.safeParse(raw);
  if (!shape.success) throw uploadError(`${M.manifestInvalid}: ${firstIssue(shape.error)}`);
  const manifest: Manifest = shape.data;
  const itemCount = manifest.campaigns.reduce(
    (n, c) => n + c.paths.length + c.options.length + c.landings.length + c.offers.length + c.tokens.length,
    0,
  );
  if (manifest.campaigns.length > MAX_IMPORT_CAMPAIGNS || itemCount > MAX_IMPORT_ITEMS) {
    throw uploadError(M.importTooLarge);
  }
  const refs = new Map(manifest.campaigns.map((c) => [c.ref, c]));
  if (refs.size !== manifest.campaigns.length)
    throw uploadError(`${M.manifestInvalid}: campaign refs repeat.`);
  const known = new Set((await getDb(env).select({ id: agents.id }).from(agents).all()).map((a) => a.id));
  const bad = (campaign: string, message: string) =>
    uploadError(`${M.manifestInvalid}: "${printable(campaign)}": ${message}`);
  const checkAgents = (name: string, ids: number[]) => {
    if (ids.some((id) => !known.has(id))) throw bad(name, CAMPAIGN_MESSAGES.agentsInvalid);
    return ids.join(',');
  };
  const flagOf = (v: unknown) => (v === 1 || v === '1' || v === true ? 1 : 0);

  // Folders before their contents, and no folder inside itself.
  const depth = new Map<number, number>();
  const depthOfRef = (ref: number, seen = new Set<number>()): number => {
    if (depth.has(ref)) return depth.get(ref)!;
    const entry = refs.get(ref)!;
    if (entry.parentRef === null) return 0;
    const parent = refs.get(entry.parentRef);
    if (parent?.is_dir !== 1 || seen.has(ref)) throw bad(entry.name, 'its folder is not in the export.');
    seen.add(ref);
    const d = depthOfRef(entry.parentRef, seen) + 1;
    depth.set(ref, d);
    return d;
  };
  const ordered = [...manifest.campaigns].sort((a, b) => depthOfRef(a.ref) - depthOfRef(b.ref));

  const plans: Plan[] = [];
  for (const entry of ordered) {
    const name = entry.name.trim();
    if (entry.is_dir === 1) {
      if (!name) throw bad(entry.name, M.folderNameRequired);
      plans.push(emptyPlan(entry.ref, entry.parentRef, { name: name.slice(0, 255), isDir: 1 }));
      continue;
    }
    const liveTokens = entry.tokens.filter((t) => flagOf(t.deleted) === 0);
    const parsed = addCampaignSchema.safeParse({
      ...(entry.campaign ?? {}),
      name,
      dir: null,
      extratokens: liveTokens,
    });
    if (!parsed.success) throw bad(entry.name, firstIssue(parsed.error));
    const rule = campaignRuleProblem(parsed.data);
    if (rule) throw bad(entry.name, rule.message);
    const plan = emptyPlan(entry.ref, entry.parentRef, campaignColumns(parsed.data, parsed.data.name));
    const pathRefs = new Set<number>();
    const optionRefs = new Set<number>();
    /** A path or option of the entry, checked by its form's schema; its ref may not repeat. */
    const refItem = <S extends z.ZodType>(
      schema: S,
      item: { ref: number },
      what: string,
      refs: Set<number>,
    ) => {
      const r = schema.safeParse({ ...item, campaignId: 1 });
      if (!r.success) throw bad(entry.name, `${what}: ${firstIssue(r.error)}`);
      if (refs.has(item.ref)) throw bad(entry.name, `${what} refs repeat.`);
      refs.add(item.ref);
      return r.data as z.output<S>;
    };
    for (const p of entry.paths) {
      const r = refItem(addPathSchema, p, 'path', pathRefs);
      plan.paths.push({
        key: p.ref,
        values: {
          name: r.name,
          share: r.share,
          active: r.active,
          agents: checkAgents(entry.name, r.agents),
          deleted: flagOf(p.deleted),
        },
      });
    }
    for (const o of entry.options) {
      const r = refItem(addOptionSchema, o, 'option', optionRefs);
      plan.options.push({
        key: o.ref,
        values: { name: r.name, active: r.active, deleted: flagOf(o.deleted) },
      });
    }
    const refOf = (value: unknown, known: Set<number>, what: string) => {
      if (value === null || value === undefined || value === 0) return null;
      if (typeof value !== 'number' || !known.has(value))
        throw bad(entry.name, `a ${what} it names is not in the export.`);
      return value;
    };
    for (const l of entry.landings) {
      const r = addLandingSchema.safeParse({ ...l, campaignId: 1, pathId: null });
      if (!r.success) throw bad(entry.name, `landing page: ${firstIssue(r.error)}`);
      plan.landings.push({
        pathKey: refOf(l.pathRef, pathRefs, 'path'),
        values: {
          name: r.data.name,
          url: r.data.url,
          share: r.data.share,
          active: r.data.active,
          agents: checkAgents(entry.name, r.data.agents),
          deleted: flagOf(l.deleted),
        },
      });
    }
    for (const o of entry.offers) {
      const r = addOfferSchema.safeParse({ ...o, campaignId: 1, pathId: null, optionId: null });
      if (!r.success) throw bad(entry.name, `offer page: ${firstIssue(r.error)}`);
      plan.offers.push({
        pathKey: refOf(o.pathRef, pathRefs, 'path'),
        optionKey: refOf(o.optionRef, optionRefs, 'option'),
        values: {
          name: r.data.name,
          url: r.data.url,
          share: r.data.share,
          payoutMicros: r.data.payout,
          active: r.data.active,
          postbackParameter: r.data.postback,
          agents: checkAgents(entry.name, r.data.agents),
          liConversionName: r.data.liConversionName,
          rotatorParticipantEmail: r.data.rotator_participant_email,
          deleted: flagOf(o.deleted),
        },
      });
    }
    // Live tokens keep their slots when they are valid and distinct; the others get free ones.
    const used = new Set<number>();
    const wanted = entry.tokens.map((t) => {
      const r = extraTokenInput.safeParse(t);
      if (!r.success) throw bad(entry.name, `token: ${firstIssue(r.error)}`);
      const deleted = flagOf(t.deleted);
      const slot = Number(t.slot);
      const keep =
        deleted === 0 && Number.isInteger(slot) && slot >= 1 && slot <= MAX_EXTRA_TOKENS && !used.has(slot);
      if (keep) used.add(slot);
      return { r: r.data, deleted, slot: keep ? slot : null, rawSlot: slot };
    });
    for (const t of wanted) {
      let slot = t.slot;
      if (slot === null) {
        if (t.deleted === 1) slot = Number.isInteger(t.rawSlot) && t.rawSlot >= 1 ? t.rawSlot : 1;
        else {
          slot = 1;
          while (used.has(slot)) slot += 1;
          used.add(slot);
        }
      }
      plan.tokens.push({
        slot,
        tokenName: t.r.token_name,
        parameter: t.r.parameter,
        urlAppend: t.r.url_append,
        landingPageEnabled: t.r.landing_page_enabled,
        offerPageEnabled: t.r.offer_page_enabled,
        deleted: t.deleted,
      });
    }
    plans.push(plan);
  }
  return plans;
}
