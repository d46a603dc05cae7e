import { toMicros } from '../../schema/money';
import type { EventSource } from '../../schema/tracking';
import type { Env } from '../env';
import { parseTestClickId } from '../services/tools/test-click-ids';
import { recordTestConversion } from '../services/tools/test-clicks';
import { TEST_CONVERSION_HEADER, TEST_RESULT_HEADER } from '../services/tools/test-postback';
import type { CONVERSION_MESSAGES } from './conversion-messages';

// Conversions of the Tools screen's test clicks (docs/decisions/061-test-clicks.md). A test click
// id is refused by parseClickId like a forged one, so the conversion route asks here before it
// answers 'Click id is not valid.': the real path pays nothing for this (a real id never gets
// here) and a test conversion never reaches the ingest queue, the rollups or an export.
// Parameter names and checks are the conversion route's (conversion.ts).

const EVENT_NAME = /^[a-z0-9_.-]{1,64}$/;
const first = (params: Record<string, string>, names: string[]) => {
  for (const name of names) {
    const v = params[name];
    if (v !== undefined && v.trim() !== '') return v.trim();
  }
  return null;
};

type Answer = (source: EventSource, status: number, message: string, field?: string) => Response;

/** The answer to a test click's conversion, or null when `raw` is not a test click id. */
export async function testConversion(args: {
  env: Env;
  request: Request;
  raw: string;
  params: Record<string, string>;
  source: EventSource;
  messages: typeof CONVERSION_MESSAGES;
  answer: Answer;
}): Promise<Response | null> {
  const { env, request, params, source, messages, answer } = args;
  const click = parseTestClickId(env, args.raw);
  if (!click) return null;
  const payoutRaw = first(params, ['payout', 'amount', 'sum', 'revenue']);
  const payout = payoutRaw === null ? null : toMicros(payoutRaw);
  if (payoutRaw !== null && payout === null) return answer(source, 422, messages.payoutInvalid, 'payout');
  const eventRaw = first(params, ['event', 'goal']);
  const event = eventRaw === null ? null : eventRaw.toLowerCase();
  if (event !== null && !EVENT_NAME.test(event)) return answer(source, 422, messages.eventInvalid, 'event');
  if (request.method === 'HEAD') return answer(source, 200, messages.accepted);
  const saved = await recordTestConversion(env, click, {
    event,
    transactionId: (first(params, ['txid', 'transaction_id', 'tx', 'order_id']) ?? '').slice(0, 255),
    payoutMicros: payout,
    source,
  });
  if (!saved) return answer(source, 400, messages.clickIdInvalid, 'clickid');
  const response = answer(source, 200, messages.accepted);
  response.headers.set(TEST_RESULT_HEADER, saved.duplicate ? 'duplicate' : 'recorded');
  response.headers.set(TEST_CONVERSION_HEADER, String(saved.id));
  return response;
}
