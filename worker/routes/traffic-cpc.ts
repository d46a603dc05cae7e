import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { requiredId } from '../../schema/campaign-api';
import {
  CPC_MESSAGES as C,
  type CpcAssetsAnswer,
  type CpcCampaignAnswer,
  type CpcConfigAnswer,
  type CpcOffersAnswer,
  EMAIL_ASSET_MAX_BYTES,
  linesSchema,
  TRAFFIC_MESSAGES as M,
  SAVE_INFO_FIELD_ORDER,
  saveInfoSchema,
  type TrafficHeadline,
  type TrafficStatusAnswer,
  UPLOAD_BATCH_SIZE,
} from '../../schema/traffic-api';
import type { AppEnv } from '../env';
import { cpcOffers, cpcStatus } from '../integrations/traffic-provider/client';
import { anyRole, requireAuth } from '../lib/auth';
import { ApiError, fieldError } from '../lib/errors';
import { parseInput, readBody } from '../lib/validate';
import { uploadBodyLimit } from '../lib/zip';
import {
  attachmentMaxMb,
  blazePublisherId,
  cpcCampaignForUser,
  saveHeadlines,
  saveInfo,
  submitData,
  trafficRow,
  updateLines,
} from '../services/traffic/cpc';
import { assetRules, deleteAssets, listAssets, saveAssets } from '../services/traffic/cpc-assets';
import { providerFailure } from '../services/traffic/provider-errors';
import { checkImage, putCampaignImage } from '../services/traffic/storage';

// Tab 8 of the campaign editor and spec 4's CPC builder (docs/api.md "Traffic providers"). The
// rules live in services/traffic/cpc.ts and cpc-assets.ts.

const campaignIdSchema = requiredId('Campaign is required.');
const campaignIdOf = (v: unknown) => parseInput(campaignIdSchema, v, ['campaign_id']);

const asList = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);

async function assetsAnswer(c: Context<AppEnv>, campaignId: number, message: string, uploaded = 0) {
  const row = await trafficRow(c.env, campaignId);
  const assets = await listAssets(c.env, campaignId, row);
  const answer: CpcAssetsAnswer = { message, assets, uploader: { uploaded, total: assets.length } };
  return answer;
}

/** JSON calls, under the API's 1 MB limit. */
export const trafficCpcRoutes = new Hono<AppEnv>()
  .get('/traffic-source/status', requireAuth, anyRole, async (c) => {
    try {
      return c.json({ data: { status: await cpcStatus(c.env) } satisfies TrafficStatusAnswer });
    } catch (err) {
      throw providerFailure(err, 'Failed to load the traffic source status');
    }
  })
  .get('/cpc/get-offers', requireAuth, anyRole, async (c) => {
    try {
      return c.json({ data: { offers: await cpcOffers(c.env) } satisfies CpcOffersAnswer });
    } catch (err) {
      throw providerFailure(err, 'Failed to load the offers');
    }
  })
  .get('/cpc/config', requireAuth, anyRole, (c) =>
    c.json({
      data: {
        config: {
          attachment_max_size_mb: attachmentMaxMb(c.env),
          blaze_publisher_id: blazePublisherId(c.env),
        },
      } satisfies CpcConfigAnswer,
    }),
  )
  .post('/cpc/save-info', requireAuth, anyRole, async (c) => {
    const body = await readBody(c);
    const campaign = await cpcCampaignForUser(c.env, c.get('user'), campaignIdOf(body.campaign_id));
    const input = parseInput(saveInfoSchema, body, SAVE_INFO_FIELD_ORDER);
    const jeeng = await saveInfo(c.env, campaign, input);
    return c.json({
      data: { message: M.trafficInfoSaved, jeeng_campaign: jeeng } satisfies CpcCampaignAnswer,
    });
  })
  .post('/cpc/update-lines', requireAuth, anyRole, async (c) => {
    const body = await readBody(c);
    const campaign = await cpcCampaignForUser(c.env, c.get('user'), campaignIdOf(body.campaign_id));
    const ids = asList(body.line ?? body['line[]']);
    const cpms = asList(body.line_cpm ?? body['line_cpm[]']);
    if (ids.length !== cpms.length) throw fieldError('line', C.linesInvalid);
    const lines = parseInput(
      linesSchema,
      ids.map((id, i) => ({ id: typeof id === 'number' ? String(id) : id, cpm: cpms[i] })),
      ['line'],
    );
    const jeeng = await updateLines(c.env, campaign, lines);
    return c.json({ data: { message: M.linesUpdated, jeeng_campaign: jeeng } satisfies CpcCampaignAnswer });
  })
  .post('/cpc/submit-data', requireAuth, anyRole, async (c) => {
    const body = await readBody(c);
    const campaign = await cpcCampaignForUser(c.env, c.get('user'), campaignIdOf(body.campaign_id));
    const jeeng = await submitData(c.env, campaign);
    return c.json({
      data: { message: M.trafficSubmitted, jeeng_campaign: jeeng } satisfies CpcCampaignAnswer,
    });
  })
  .delete('/cpc/delete-asset/:campaignId/:name', requireAuth, anyRole, async (c) => {
    const campaign = await cpcCampaignForUser(c.env, c.get('user'), campaignIdOf(c.req.param('campaignId')));
    await deleteAssets(c.env, campaign, await trafficRow(c.env, campaign.id), [c.req.param('name')]);
    return c.json({
      data: (await assetsAnswer(c, campaign.id, M.deleteAssetsDone)) satisfies CpcAssetsAnswer,
    });
  })
  .post('/cpc/delete-assets/:campaignId', requireAuth, anyRole, async (c) => {
    const campaign = await cpcCampaignForUser(c.env, c.get('user'), campaignIdOf(c.req.param('campaignId')));
    const body = await readBody(c);
    const names = parseInput(
      z.array(z.string().min(1).max(200), { error: C.assetNotFound }).min(1, C.assetNotFound).max(MAX_NAMES),
      asList(body.names ?? body['names[]']),
      ['names'],
    );
    await deleteAssets(c.env, campaign, await trafficRow(c.env, campaign.id), names);
    return c.json({
      data: (await assetsAnswer(c, campaign.id, M.deleteAssetsDone)) satisfies CpcAssetsAnswer,
    });
  });

const MAX_NAMES = 200;

async function multipart(c: Context<AppEnv>): Promise<FormData> {
  const type = c.req.header('content-type') ?? '';
  if (!type.includes('multipart/form-data'))
    throw new ApiError(400, 'Send the files as multipart form data.');
  try {
    return await c.req.formData();
  } catch {
    throw new ApiError(400, 'The upload could not be read. Please choose the files again.');
  }
}

const filesOf = (form: FormData, key: string) =>
  ([...form.getAll(`${key}[]`), ...form.getAll(key)] as unknown[]).filter(
    (f): f is File => f instanceof File && f.size > 0,
  );

/** A batch of 5 of the largest assets plus the form's fields. */
const UPLOAD_LIMIT = UPLOAD_BATCH_SIZE * EMAIL_ASSET_MAX_BYTES + 256 * 1024;
/** Headlines carry one image each; 50 headlines at most. */
const HEADLINES_LIMIT = 50 * EMAIL_ASSET_MAX_BYTES + 256 * 1024;

/** Multipart calls, mounted before the API's 1 MB limit with limits of their own. */
export const trafficCpcUploadRoutes = new Hono<AppEnv>()
  .use('/cpc/save-assets', uploadBodyLimit(UPLOAD_LIMIT, C.assetUploadTooLarge))
  .use('/cpc/save-headlines', uploadBodyLimit(HEADLINES_LIMIT, C.headlinesTooLarge))
  .post('/cpc/save-assets', requireAuth, anyRole, async (c) => {
    const form = await multipart(c);
    const campaign = await cpcCampaignForUser(c.env, c.get('user'), campaignIdOf(form.get('campaign_id')));
    const files = filesOf(form, 'images');
    await saveAssets(c.env, campaign, await trafficRow(c.env, campaign.id), files);
    return c.json({
      data: (await assetsAnswer(c, campaign.id, M.assetsSaved, files.length)) satisfies CpcAssetsAnswer,
    });
  })
  .post('/cpc/save-headlines', requireAuth, anyRole, async (c) => {
    const form = await multipart(c);
    const campaign = await cpcCampaignForUser(c.env, c.get('user'), campaignIdOf(form.get('campaign_id')));
    // Nothing is written before every headline and image is checked.
    const row = await trafficRow(c.env, campaign.id);
    if (row?.submitted === 1) throw fieldError('campaign_id', C.submitted);
    const texts = [...form.getAll('headlines[]'), ...form.getAll('headlines')].map((h) => String(h).trim());
    if (texts.length > 50 || texts.some((t) => t === '' || t.length > 200))
      throw fieldError('headlines', C.headlineRequired);
    // Position i is headline i's image; an empty entry ('' or an empty file) means none.
    const images = [...form.getAll('headlines_images[]'), ...form.getAll('headlines_images')] as unknown[];
    const rules = assetRules(row, campaign);
    const previous = JSON.parse(row?.headlines || '[]') as TrafficHeadline[];
    const headlines: TrafficHeadline[] = [];
    const checked = [];
    for (const [i, text] of texts.entries()) {
      const entry = images[i];
      const file = entry instanceof File && entry.size > 0 ? entry : null;
      const image = file ? await checkImage(file, rules.extensions, rules.maxBytes) : null;
      if (image && 'problem' in image) {
        const message =
          image.problem === 'size' ? `${image.name} ${C.assetSize}` : `${rules.typeMessage} (${image.name})`;
        throw fieldError(image.problem === 'size' ? 'size_exceeded' : 'headlines_images', message);
      }
      checked.push(image);
      // Without a new file a headline keeps the image it had at its position.
      headlines.push({ headline: text, image: image ? image.name : (previous[i]?.image ?? '') });
    }
    for (const image of checked)
      if (image) await putCampaignImage(c.env, 'traffic', campaign.id, `headlines/${image.name}`, image);
    const jeeng = await saveHeadlines(c.env, campaign, headlines);
    return c.json({ data: { message: M.headlinesSaved, jeeng_campaign: jeeng } satisfies CpcCampaignAnswer });
  });
