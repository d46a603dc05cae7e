import { Hono } from 'hono';
import type {
  CampaignPostbackSecretAnswer,
  EndLegacyGraceAnswer,
  PostbackSecretAnswer,
  RotatePostbackSecretAnswer,
  SetCampaignPostbackSecretAnswer,
} from '../../schema/postback-secret-api';
import type { AppEnv } from '../env';
import { requireAuth, requireRole } from '../lib/auth';
import { pathId } from '../lib/validate';
import { campaignForUser } from '../services/campaigns';
import {
  campaignSecret,
  endLegacyGrace,
  expectedSecret,
  installationSecret,
  legacyState,
  rotateInstallationSecret,
  setCampaignSecret,
} from '../services/postbacks/postback-secret';

// The postback secret (docs/api.md "Hardening", docs/decisions/120): the installation's is an
// admin's to see and rotate, with the grace period in which it still converts every campaign;
// a campaign's secret (derived or stored) is its managers'.

const campaignIdOf = (raw: string) => pathId(raw, 'Campaign not found.');

export const postbackSecretRoutes = new Hono<AppEnv>()
  .get('/postback-secret', requireAuth, requireRole('admin'), async (c) =>
    c.json({
      data: {
        secret: await installationSecret(c.env),
        legacy: await legacyState(c.env),
      } satisfies PostbackSecretAnswer,
    }),
  )
  .post('/postback-secret/rotate', requireAuth, requireRole('admin'), async (c) =>
    c.json({
      data: {
        secret: await rotateInstallationSecret(c.env),
        message: 'Postback secret rotated. Update the postback URLs at your networks.',
      } satisfies RotatePostbackSecretAnswer,
    }),
  )
  .post('/postback-secret/legacy/end', requireAuth, requireRole('admin'), async (c) => {
    await endLegacyGrace(c.env);
    return c.json({
      data: {
        legacy: await legacyState(c.env),
        message: 'The installation\u2019s postback secret no longer converts campaigns.',
      } satisfies EndLegacyGraceAnswer,
    });
  })
  .get('/campaigns/:id/postback-secret', requireAuth, async (c) => {
    const campaign = await campaignForUser(c.env, c.get('user'), campaignIdOf(c.req.param('id')));
    const own = await campaignSecret(c.env, campaign.id);
    return c.json({
      data: {
        own: own !== null,
        secret: own ?? (await expectedSecret(c.env, campaign.id)),
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
          : 'The campaign uses its postback secret derived from the installation\u2019s.',
      } satisfies SetCampaignPostbackSecretAnswer,
    });
  });
