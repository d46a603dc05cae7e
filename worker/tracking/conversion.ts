import { toMicros } from '../../schema/money';
import { type ConversionEvent, clip, type EventSource } from '../../schema/tracking';
import type { Env } from '../env';
import { parseBodyBytes } from '../lib/body';
import { ApiError } from '../lib/errors';
import { type ParsedClickId, parseClickId } from '../services/hot-path/click-ids';
import { track } from './batcher';
import { guardConversion } from './conversion-guard';
import { CONVERSION_MESSAGES } from './conversion-messages';
import { COOKIE_PREFIX, cookieValue } from './cookies';
import * as pages from './pages';
import type { RequestUrl } from './request-url';
import { testConversion } from './test-conversion';

// Conversions and named events: server postbacks, image pixels, iframes and scripts, all keyed
// by click id (docs/tracking.md "Conversions").

type ConversionParams = Record<string, string>;

/** The query and, for a POST, the JSON or form body; an unreadable body throws a 400 ApiError. */
async function conversionParams(request: Request, url: RequestUrl): Promise<ConversionParams> {
  const params: ConversionParams = {};
  for (const [k, v] of url.searchParams) params[k.toLowerCase()] ??= v;
  if (request.method === 'POST') {
    // Networks send what they send: another content type is left unread (docs/decisions/125).
    const body = await parseBodyBytes(
      await request.arrayBuffer(),
      request.headers.get('content-type') ?? '',
      'ignore',
    );
    if (body.kind === 'json') {
      for (const [k, v] of Object.entries(body.value)) {
        if (typeof v === 'string' || typeof v === 'number') params[k.toLowerCase()] ??= String(v);
      }
    } else if (body.kind === 'form') {
      for (const [k, v] of body.form) if (typeof v === 'string') params[k.toLowerCase()] ??= v;
    }
  }
  return params;
}

const first = (params: ConversionParams, names: string[]) => {
  for (const name of names) {
    const v = params[name];
    if (v !== undefined && v.trim() !== '') return v.trim();
  }
  return null;
};

const EVENT_NAME = /^[a-z0-9_.-]{1,64}$/;

function conversionAnswer(source: EventSource, status: number, message: string, field = 'message'): Response {
  const headers = { 'x-tracker-result': status === 200 ? 'accepted' : 'rejected' };
  if (source === 'pixel') return pages.pixel(status, headers);
  if (source === 'iframe') return pages.iframePage(status, headers);
  if (source === 'script') return pages.script(`/* ${message} */`, status, headers);
  const body =
    status === 200 ? { data: { status: 'accepted', message } } : { message, errors: { [field]: [message] } };
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...pages.noStoreHeaders(), ...headers },
  });
}

/**
 * A conversion or named event: server postback (GET or POST), image pixel, iframe or script.
 * Parameters: clickid (or cid, click_id, subid), payout (or amount, sum, revenue), txid (or
 * transaction_id, tx, order_id), event (or goal). Browsers' pixels may leave out the click id
 * and name the campaign instead; the campaign's cookie then supplies it.
 */
export async function conversion(
  request: Request,
  url: RequestUrl,
  env: Env,
  ctx: ExecutionContext,
  source: EventSource,
) {
  if (request.method !== 'GET' && request.method !== 'POST' && request.method !== 'HEAD') {
    return conversionAnswer(source, 405, 'Method not allowed.');
  }
  let params: ConversionParams;
  try {
    params = await conversionParams(request, url);
  } catch (err) {
    if (err instanceof ApiError) return conversionAnswer(source, err.status, err.message);
    throw err;
  }
  const raw = first(params, ['clickid', 'cid', 'click_id', 'subid']);
  let parsed: ParsedClickId | null = null;
  if (raw) {
    parsed = parseClickId(env, raw);
    if (!parsed) {
      // A test click of the Tools screen is recorded apart, never counted (docs/decisions/061).
      const test = await testConversion({
        env,
        request,
        raw,
        params,
        source,
        messages: CONVERSION_MESSAGES,
        answer: conversionAnswer,
      });
      return test ?? conversionAnswer(source, 400, CONVERSION_MESSAGES.clickIdInvalid, 'clickid');
    }
  } else if (source !== 'postback') {
    const campaignId = Number(first(params, ['campaign', 'campaignid']) ?? 0);
    if (campaignId > 0) {
      parsed = parseClickId(env, cookieValue(request, `${COOKIE_PREFIX}${campaignId}`));
      if (parsed && parsed.campaignId !== campaignId) parsed = null;
    }
  }
  if (!parsed) return conversionAnswer(source, 400, CONVERSION_MESSAGES.clickIdRequired, 'clickid');

  const payoutRaw = first(params, ['payout', 'amount', 'sum', 'revenue']);
  const payout = payoutRaw === null ? null : toMicros(payoutRaw);
  if (payoutRaw !== null && payout === null) {
    return conversionAnswer(source, 422, CONVERSION_MESSAGES.payoutInvalid, 'payout');
  }
  const eventRaw = first(params, ['event', 'goal']);
  const eventName = eventRaw === null ? null : eventRaw.toLowerCase();
  if (eventName !== null && !EVENT_NAME.test(eventName)) {
    return conversionAnswer(source, 422, CONVERSION_MESSAGES.eventInvalid, 'event');
  }
  // HEAD requests (link checkers) are answered but never counted.
  if (request.method !== 'HEAD') {
    const tx = clip(first(params, ['txid', 'transaction_id', 'tx', 'order_id']));
    const checked = await guardConversion(env, ctx, parsed, params, { payout, tx, event: eventName });
    if ('status' in checked) return conversionAnswer(source, checked.status, checked.message, checked.field);
    const event: ConversionEvent = {
      k: 'c',
      id: parsed.clickId,
      c: parsed.campaignId,
      p: parsed.pathId,
      l: parsed.landingId,
      o: parsed.offerId,
      at: Date.now(),
      ev: checked.event,
      tx,
      pay: payout,
      src: source,
    };
    track(env, ctx, event);
  }
  return conversionAnswer(source, 200, CONVERSION_MESSAGES.accepted);
}
