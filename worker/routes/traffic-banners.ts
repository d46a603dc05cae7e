import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { requiredId } from '../../schema/campaign-api';
import {
  BANNER_FIELD_ORDER,
  BANNER_IMAGE_MAX_BYTES,
  type BannersAnswer,
  bannerFieldsSchema,
  DEFAULT_BLAZE_PUBLISHER_ID,
  TRAFFIC_MESSAGES as M,
  type PlacementAnswer,
  UPLOAD_BATCH_SIZE,
  type ZonesAnswer,
} from '../../schema/traffic-api';
import type { AppEnv } from '../env';
import { anyRole, requireAuth } from '../lib/auth';
import { ApiError, fieldError } from '../lib/errors';
import { parseInput, readBody } from '../lib/validate';
import { uploadBodyLimit } from '../lib/zip';
import {
  blazeCampaignForUser,
  createBanners,
  currentPlacement,
  deleteBanners,
  listBanners,
  savePlacement,
  setBannersActive,
  updateBanner,
  zones,
} from '../services/traffic/banners';

// Tab 7 of the campaign editor: blaze banners and placement (spec 2 §7, §8; docs/api.md
// "Traffic providers"). The rules live in services/traffic/banners.ts.

const campaignIdSchema = requiredId('Campaign is required.');

const idList = (v: unknown) =>
  parseInput(
    z.array(z.coerce.number().int().positive(), { error: M.idsRequired }).min(1, M.idsRequired),
    [].concat((v ?? []) as never),
    ['ids'],
  );

const flag01 = z.preprocess(
  (v) => (v === '1' || v === 1 || v === true || v === 'true' ? 1 : 0),
  z.union([z.literal(0), z.literal(1)]),
);

/** JSON calls, under the API's 1 MB limit. */
export const trafficBannerRoutes = new Hono<AppEnv>()
  .get('/blaze/get-zones-and-placement-by-publisher-id/:id', requireAuth, anyRole, async (c) => {
    const publisher = Number(c.req.param('id')) || DEFAULT_BLAZE_PUBLISHER_ID;
    const campaignId = c.req.query('campaign_id');
    const placement = campaignId
      ? await currentPlacement(
          c.env,
          (
            await blazeCampaignForUser(
              c.env,
              c.get('user'),
              parseInput(campaignIdSchema, campaignId, ['campaign_id']),
            )
          ).id,
        )
      : null;
    return c.json({
      status: 'success',
      data: { zones: await zones(c.env, publisher), placement },
    } satisfies ZonesAnswer);
  })
  .get('/blaze/banners', requireAuth, anyRole, async (c) => {
    const id = parseInput(campaignIdSchema, c.req.query('campaign_id'), ['campaign_id']);
    const campaign = await blazeCampaignForUser(c.env, c.get('user'), id);
    return c.json({
      data: { message: '', banners: await listBanners(c.env, campaign.id) } satisfies BannersAnswer,
    });
  })
  .post('/blaze/delete-banners', requireAuth, anyRole, async (c) => {
    const body = await readBody(c);
    const campaign = await blazeCampaignForUser(
      c.env,
      c.get('user'),
      parseInput(campaignIdSchema, body.campaign_id, ['campaign_id']),
    );
    await deleteBanners(c.env, campaign, idList(body.ids ?? body['ids[]']));
    return c.json({
      data: {
        message: M.bannersDeleted,
        banners: await listBanners(c.env, campaign.id),
      } satisfies BannersAnswer,
    });
  })
  .post('/blaze/save-placement', requireAuth, anyRole, async (c) => {
    const body = await readBody(c);
    const campaign = await blazeCampaignForUser(
      c.env,
      c.get('user'),
      parseInput(campaignIdSchema, body.campaign_id, ['campaign_id']),
    );
    const placement = parseInput(
      z
        .string({ error: M.placementRequired })
        .trim()
        .min(1, M.placementRequired)
        .max(100, M.placementRequired),
      body.placement,
      ['placement'],
    );
    await savePlacement(c.env, campaign, placement);
    return c.json({ data: { message: M.placementsSaved, placement } satisfies PlacementAnswer });
  });

async function multipart(c: Context<AppEnv>): Promise<FormData> {
  const type = c.req.header('content-type') ?? '';
  if (!type.includes('multipart/form-data'))
    throw new ApiError(400, 'Send the banner as multipart form data.');
  try {
    return await c.req.formData();
  } catch {
    throw new ApiError(400, 'The upload could not be read. Please choose the files again.');
  }
}

/** A batch of 5 images and the form's fields. */
const SAVE_BANNER_LIMIT = UPLOAD_BATCH_SIZE * BANNER_IMAGE_MAX_BYTES + 256 * 1024;

/** POST api/blaze/save-banner: create (images[]), edit (id, at most one image) or bulk activation (ids[], active). */
export const trafficBannerUploadRoutes = new Hono<AppEnv>()
  .use('/blaze/save-banner', uploadBodyLimit(SAVE_BANNER_LIMIT, M.bannerUploadTooLarge))
  .post('/blaze/save-banner', requireAuth, anyRole, async (c) => {
    const form = await multipart(c);
    const campaign = await blazeCampaignForUser(
      c.env,
      c.get('user'),
      parseInput(campaignIdSchema, form.get('campaign_id'), ['campaign_id']),
    );
    const ids = [...form.getAll('ids[]'), ...form.getAll('ids')];
    if (ids.length) {
      const active = parseInput(flag01, form.get('active'), ['active']);
      await setBannersActive(c.env, campaign, idList(ids), active);
      return c.json({
        data: {
          message: M.bannersUpdated,
          banners: await listBanners(c.env, campaign.id),
        } satisfies BannersAnswer,
      });
    }
    const files = ([...form.getAll('images[]'), ...form.getAll('images')] as unknown[]).filter(
      (f): f is File => f instanceof File && f.size > 0,
    );
    const fields = parseInput(bannerFieldsSchema, Object.fromEntries(form), BANNER_FIELD_ORDER);
    const id = form.get('id');
    if (id !== null && id !== '' && id !== '0') {
      const bannerId = Number(id);
      if (!Number.isInteger(bannerId) || bannerId <= 0) throw fieldError('id', M.bannerNotFound);
      await updateBanner(c.env, campaign, bannerId, fields, files);
      return c.json({
        data: {
          message: M.bannersUpdated,
          banners: await listBanners(c.env, campaign.id),
        } satisfies BannersAnswer,
      });
    }
    await createBanners(c.env, campaign, fields, files);
    return c.json(
      {
        data: {
          message: M.bannersSaved,
          banners: await listBanners(c.env, campaign.id),
        } satisfies BannersAnswer,
      },
      201,
    );
  });
