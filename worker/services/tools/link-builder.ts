import { and, asc, eq } from 'drizzle-orm';
import { extraTokens } from '../../../schema/campaigns';
import {
  type LinkBuilderAnswer,
  type LinkBuilderInput,
  TOOLS_MESSAGES as M,
  type TrafficSourceInfo,
} from '../../../schema/tools-api';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { getDb } from '../../lib/db';
import { fieldError } from '../../lib/errors';
import { campaignForUser } from '../campaigns/access';
import { TOKEN_TEMPLATES } from '../campaigns/token-templates';
import { trackingOrigin } from '../campaigns/tracking-origin';
import { getSettings } from '../settings/settings';
import { encodeMacroValue, TARGET_MACROS, targetValue } from './source-macros';

// The link builder: the campaign link with a traffic source's macros in place (docs/decisions/
// 062-link-builder-and-qr.md). Sources are the editor's (spec 2 §4) and the token templates';
// their macros come from the token templates, one table for both screens.

/** The editor's sources that have no token template: no known macros, values typed by hand. */
const EDITOR_ONLY_SOURCES = [
  { key: 'blaze', label: 'Blaze' },
  { key: 'trrcpc', label: 'CPC email network (TRR CPC)' },
  { key: 'crane', label: 'Apple News (Crane)' },
  { key: 'trrde', label: 'TRR DE' },
];

export const TRAFFIC_SOURCES_INFO: TrafficSourceInfo[] = [
  ...TOKEN_TEMPLATES.map((t) => ({
    key: t.key,
    label: t.label,
    targetMacro: TARGET_MACROS[t.key] ?? '',
    tokens: t.tokens,
  })),
  ...EDITOR_ONLY_SOURCES.map((s) => ({ ...s, targetMacro: '', tokens: [] })),
];

export { encodeMacroValue };

const trim = (route: string) => route.replace(/^\/+|\/+$/g, '');

export async function buildLink(
  env: Env,
  user: AuthUser,
  input: LinkBuilderInput,
  requestOrigin: string,
): Promise<LinkBuilderAnswer> {
  const source = input.trafficSource ? TRAFFIC_SOURCES_INFO.find((s) => s.key === input.trafficSource) : null;
  if (input.trafficSource && !source) throw fieldError('trafficSource', M.sourceUnknown);
  const row = await campaignForUser(env, user, input.campaignId);
  const settings = await getSettings(env);
  const tokens = await getDb(env)
    .select()
    .from(extraTokens)
    .where(and(eq(extraTokens.campaignId, row.id), eq(extraTokens.deleted, 0)))
    .orderBy(asc(extraTokens.slot))
    .all();
  const macroOf = (parameter: string) =>
    source?.tokens.find((t) => t.parameter === parameter)?.url_append ?? '';

  const parameters: LinkBuilderAnswer['parameters'] = [
    {
      name: row.urlAppendToken,
      value: targetValue(source?.key ?? '', row.urlAppendToken, macroOf(row.urlAppendToken)),
      from: 'target',
    },
  ];
  for (const token of tokens) {
    if (token.parameter === row.urlAppendToken) continue;
    // A token without a value is left out, as in the editor's Campaign URL: no empty parameters.
    const value = token.urlAppend || macroOf(token.parameter);
    if (value) parameters.push({ name: token.parameter, value, from: 'token' });
  }
  for (const extra of input.params) {
    const existing = parameters.find((p) => p.name === extra.name);
    if (existing) existing.value = extra.value;
    else parameters.push({ name: extra.name, value: extra.value, from: 'extra' });
  }
  const have = new Set(parameters.map((p) => p.name));
  const origin = trackingOrigin(settings, requestOrigin);
  const query = parameters.map((p) => `${encodeURIComponent(p.name)}=${encodeMacroValue(p.value)}`).join('&');
  return {
    url: `${origin}/${trim(settings.route_main)}/${row.id}?${query}`,
    trafficSource: source?.key ?? '',
    parameters,
    missingTokens: (source?.tokens ?? []).filter((t) => !have.has(t.parameter) && t.url_append !== ''),
  };
}
