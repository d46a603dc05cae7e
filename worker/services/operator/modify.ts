import { addDays } from '../../../schema/dates';
import type { CorrectionRecord, ModifyVerb } from '../../../schema/masterdashboard-api';
import type { MetricBase } from '../../../schema/metrics';
import type { Env } from '../../env';
import type { CampaignRow } from '../campaigns/access';
import { type NewCorrection, writeCorrections } from './corrections';
import { effectiveDay } from './reports';

// The modify calls of spec 4 §7 as corrections (docs/decisions/081). A value is the day's value:
// a range writes one correction per day. Rates (cpa, cpc, lpcpc, ad_ctr) are stored as the base
// number they imply for that day (spend, impressions), from the day's numbers as they stand.

type Values = Record<string, number>;

function days(from: string, to: string) {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

function correctionsFor(
  verb: Exclude<ModifyVerb, 'modify-row'>,
  v: Values,
  day: string,
  m: MetricBase,
): NewCorrection[] {
  switch (verb) {
    case 'modify-adspend':
      return [{ day, field: 'spend', value: v.ad_spend }];
    case 'modify-conversion':
      return [
        { day, field: 'conversions', value: v.conversion },
        { day, field: 'revenue', value: v.conversion * v.payout },
      ];
    case 'modify-adclicks':
      return [{ day, field: 'ad_clicks', value: v.ad_clicks }];
    case 'modify-revenue':
      return [{ day, field: 'revenue', value: v.revenue }];
    case 'modify-cpa':
      return [{ day, field: 'spend', value: v.cpa * m.conversions }];
    case 'modify-cpc':
      return [{ day, field: 'spend', value: v.cpc * m.visits }];
    case 'modify-lpcpc':
      return [{ day, field: 'spend', value: v.lpcpc * m.lpClicks }];
    case 'modify-adctr':
      return [{ day, field: 'impressions', value: Math.round((m.adClicks * 100) / v.ad_ctr) }];
  }
}

const NEEDS_DAY: ReadonlySet<string> = new Set(['modify-cpa', 'modify-cpc', 'modify-lpcpc', 'modify-adctr']);

export async function modifyRange(
  env: Pick<Env, 'DB'>,
  row: CampaignRow,
  verb: Exclude<ModifyVerb, 'modify-row'>,
  values: Values,
  from: string,
  to: string,
  who: string,
): Promise<CorrectionRecord[]> {
  const rows: NewCorrection[] = [];
  for (const day of days(from, to)) {
    const m = NEEDS_DAY.has(verb) ? await effectiveDay(env, row, day) : ({} as MetricBase);
    rows.push(...correctionsFor(verb, values, day, m));
  }
  return writeCorrections(env, row.id, verb, who, rows);
}

export function modifyRow(
  env: Pick<Env, 'DB'>,
  row: CampaignRow,
  v: {
    sid_token: string;
    ad_clicks: number;
    ad_spend: number;
    conversions: number;
    payout: number;
    date: string;
  },
  who: string,
) {
  return writeCorrections(
    env,
    row.id,
    'modify-row',
    who,
    [
      { day: v.date, field: 'ad_clicks', value: v.ad_clicks },
      { day: v.date, field: 'spend', value: v.ad_spend },
      { day: v.date, field: 'conversions', value: v.conversions },
      { day: v.date, field: 'revenue', value: v.conversions * v.payout },
    ],
    v.sid_token,
  );
}
