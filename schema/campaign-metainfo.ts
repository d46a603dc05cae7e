import { z } from 'zod';
import { BLAZE_PLACEMENT_TYPES } from './traffic-api';
import { isHttpUrl } from './validators';

// A campaign's metainfo (spec 2 §3): a JSON object holding the facebook campaign id, verified
// flag and message, dataset id and event name; blaze current_placement_type, placement_direct_url
// and campaign id; the jeeng campaign id; and the alerts the system raises (spec 3 §3). The
// editor writes the fields named here (decision 171); any other key passes as it is.

export const METAINFO_MESSAGES = {
  metainfoInvalid: 'Metainfo must be a JSON object.',
  datasetInvalid: 'The dataset ID is the number Facebook gives the dataset (pixel): digits only.',
  eventInvalid: 'Event names may contain only letters, digits, underscore, dash and dot.',
  urlInvalid: 'Enter a valid http or https URL.',
  externalIdInvalid: 'Campaign IDs may contain only letters, digits, underscore and dash.',
  placementInvalid: 'Choose one of the placement types.',
} as const;
const M = METAINFO_MESSAGES;

export const EVENT_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const DATASET_ID = /^\d{1,20}$/;
const EXTERNAL_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Where a blaze campaign is placed: the banner placements, or a dedicated one (its own wallet). */
export const BLAZE_CAMPAIGN_PLACEMENTS = [...BLAZE_PLACEMENT_TYPES, 'DEDICATED_PLACEMENT'] as const;

/** The Conversions API event a Facebook campaign's conversions are sent as, when none is set. */
export const DEFAULT_FACEBOOK_EVENT = 'Purchase';

type Meta = Record<string, unknown>;
const objectAt = (meta: Meta, key: string): Meta | null => {
  const v = meta[key];
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Meta) : null;
};

/** The text at `path` ('dataset_id', 'blaze.campaign_id'), '' when absent or not text. */
export function metaText(meta: Meta, path: string): string {
  const [first, second] = path.split('.');
  const v = second === undefined ? meta[first] : objectAt(meta, first)?.[second];
  return typeof v === 'string' ? v : '';
}

/** The metainfo with `path` set to `value` (nested objects kept, an empty value dropped). */
export function withMetaText(meta: Meta, path: string, value: string): Meta {
  const [first, second] = path.split('.');
  if (second === undefined) {
    const { [first]: _old, ...rest } = meta;
    return value ? { ...rest, [first]: value } : rest;
  }
  const { [second]: _old, ...inner } = objectAt(meta, first) ?? {};
  return { ...meta, [first]: value ? { ...inner, [second]: value } : inner };
}

const RULES: { path: string; ok: (v: string) => boolean; message: string }[] = [
  { path: 'dataset_id', ok: (v) => DATASET_ID.test(v), message: M.datasetInvalid },
  { path: 'event_name', ok: (v) => EVENT_NAME.test(v), message: M.eventInvalid },
  {
    path: 'blaze.current_placement_type',
    ok: (v) => (BLAZE_CAMPAIGN_PLACEMENTS as readonly string[]).includes(v),
    message: M.placementInvalid,
  },
  { path: 'blaze.placement_direct_url', ok: (v) => v.length <= 2000 && isHttpUrl(v), message: M.urlInvalid },
  { path: 'blaze.campaign_id', ok: (v) => EXTERNAL_ID.test(v), message: M.externalIdInvalid },
  { path: 'jeeng.campaign_id', ok: (v) => EXTERNAL_ID.test(v), message: M.externalIdInvalid },
];

function metainfoRules(meta: Meta, ctx: z.RefinementCtx) {
  for (const key of ['blaze', 'jeeng'])
    if (meta[key] !== undefined && objectAt(meta, key) === null)
      ctx.addIssue({ code: 'custom', path: [key], message: M.metainfoInvalid });
  for (const rule of RULES) {
    const [first, second] = rule.path.split('.');
    const v = second === undefined ? meta[first] : objectAt(meta, first)?.[second];
    if (v === undefined || v === null || v === '') continue;
    if (typeof v !== 'string' || !rule.ok(v))
      ctx.addIssue({ code: 'custom', path: rule.path.split('.'), message: rule.message });
  }
}

/** The metainfo of add-campaign and edit-campaign: an object (or its JSON text), its fields checked. */
export const metainfoInput = () =>
  z.preprocess(
    (v) => {
      if (v === undefined || v === null || v === '') return {};
      if (typeof v === 'string') {
        try {
          return JSON.parse(v);
        } catch {
          return v;
        }
      }
      return v;
    },
    z
      .record(z.string(), z.unknown(), { error: M.metainfoInvalid })
      .refine((v) => JSON.stringify(v).length <= 65_536, M.metainfoInvalid)
      .superRefine(metainfoRules),
  );
