// The campaign editor's answer types: schema's (schema/campaign-api.ts and
// schema/pages-operations-api.ts), the same ones the worker answers with, re-exported here so
// the editor's files import them from one place.
import type { ExtraToken as ExtraTokenAnswer } from '../../../../schema/campaign-api';

export type {
  Agent,
  CampaignDetail,
  Landing,
  Offer,
  OptionItem,
  PathItem,
} from '../../../../schema/campaign-api';
export type {
  ItemKind,
  ItemOf,
  ItemsUploadAnswer as UploadAnswer,
  OptimizationAnswer,
} from '../../../../schema/pages-operations-api';

/** A token row as the campaign form holds it: the answer's fields; a row added in the form has no id yet. */
export type ExtraToken = Omit<ExtraTokenAnswer, 'extraTokenId' | 'campaignId' | 'slot'> & {
  extraTokenId: number | null;
};
