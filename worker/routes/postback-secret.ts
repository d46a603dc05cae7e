import { Hono } from 'hono';
import type {
  CampaignPostbackSecretAnswer,
  PostbackSecretAnswer,
  RotatePostbackSecretAnswer,
  SetCampaignPostbackSecretAnswer,
} from '../../schema/postback-secret-api';
import type { AppEnv } from '../env';
import { requireAuth, requireRole } from '../lib/auth';
import { ApiError } from '../lib/errors';
import { campaignForUser } from '../services/campaigns';
import {
  campaignSecret,
  installationSecret,
  rotateInstallationSecret,
  setCampaignSecret,
} from '../services/postback-secret';

// The postback secret (docs/api.md "Hardening"): the installation's is an admin's to see and
// rotate; a campaign's own secret is its manager's.

const campaignIdOf = (raw: string) => {
  const id = Number(raw);
  if (!Number.isInteger(id) || id < 1) throw new ApiError(404, 'Campaign not found.');
  return id;
};

export const postbackSecretRoutes = new Hono<AppEnv>()
  .get('/postback-secret', requireAuth, requireRole('admin'), async (c) =>
    c.json({ data: { secret: await installationSecret(c.env) } satisfies PostbackSecretAnswer }),
  )
  .post('/postback-secret/rotate', requireAuth, requireRole('admin'), async (c) =>
    c.json({
      data: {
        secret: await rotateInstallationSecret(c.env),
        message: 'Postback secret rotated. Update the postback URLs at your networks.',
      } satisfies RotatePostbackSecretAnswer,
    }),
  )
  .get('/campaigns/:id/postback-secret', requireAuth, async (c) => {
    const campaign = await campaignForUser(c.env, c.get('user'), campaignIdOf(c.req.param('id')));
    const own = await campaignSecret(c.env, campaign.id);
    return c.json({
      data: {
        own: own !== null,
        secret: own ?? (await installationSecret(c.env)),
      } satisfies CampaignPostbackSecretAnswer,
    });
  })
  .post('/campaigns/:id/postback-secret', requireAuth, async (c) => {
    const campaign = await campaignForUser(c.env, c.get('user'), campaignIdOf(c.req.param('id')));
    const body = (await c.req.json().catch(() => null)) as { own?: unknown } | null;
    const own = body?.own === undefined ? true : body.own === true || body.own === 1 || body.own === '1';
    const secret = await setCampaignSecret(c.env, campaign.id, own);
    return c.json({
      data: {
        own,
        secret,
        message: own
          ? 'The campaign has a new postback secret of its own.'
          : 'The campaign uses the installation\u2019s postback secret.',
      } satisfies SetCampaignPostbackSecretAnswer,
    });
  });
