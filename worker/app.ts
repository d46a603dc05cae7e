import { Hono } from 'hono';
import type { AppEnv } from './env';
import { limitedBody } from './lib/body';
import { errorBody, onError } from './lib/errors';
import { pagePolicy, securityHeaders, withSecurityHeaders } from './lib/security-headers';
import { accountRoutes } from './routes/accounts';
import { acrossCampaignRoutes } from './routes/across-campaigns';
import { authRoutes, csrfCookieHandler } from './routes/auth';
import { campaignListRoutes, campaignUploadRoutes } from './routes/campaign-list';
import { campaignReportRoutes } from './routes/campaign-reports';
import { campaignRoutes } from './routes/campaigns';
import { creativeStatusRoutes } from './routes/creative-status';
import { fileRoutes } from './routes/files';
import { fundingRoutes } from './routes/funding';
import { integrationRoutes } from './routes/integrations';
import { forceSyncRoutes } from './routes/liveintent-force-sync';
import { manageLiveintentRoutes } from './routes/manage-liveintent';
import { masterDashboardRoutes } from './routes/masterdashboard';
import { operatorRoutes } from './routes/operator';
import { pagesOperationRoutes, pagesUploadRoutes } from './routes/pages-operations';
import { platformSyncRoutes } from './routes/platform-sync';
import { postbackSecretRoutes } from './routes/postback-secret';
import { rotatorRoutes } from './routes/rotators';
import { settingsRoutes, settingsUploadRoutes } from './routes/settings';
import { statsRoutes } from './routes/stats';
import { statsReportRoutes } from './routes/stats-reports';
import { toolRoutes } from './routes/tools';
import { trafficBannerRoutes, trafficBannerUploadRoutes } from './routes/traffic-banners';
import { trafficCpcRoutes, trafficCpcUploadRoutes } from './routes/traffic-cpc';
import { devRoutes, userRoutes } from './routes/users';

/**
 * JSON API bodies above this size answer 413; uploads mount their own, larger limits. Every
 * limit is `limitedBody`, which also answers an unreadable body 400 (docs/decisions/125).
 */
const API_BODY_LIMIT = 1024 * 1024;

export function createApp() {
  const api = new Hono<AppEnv>()
    .use(limitedBody(API_BODY_LIMIT))
    .route('/', authRoutes)
    .route('/', userRoutes)
    .route('/', devRoutes)
    .route('/', campaignRoutes)
    .route('/', campaignListRoutes)
    .route('/', campaignReportRoutes)
    .route('/', acrossCampaignRoutes)
    .route('/', accountRoutes)
    .route('/', settingsRoutes)
    .route('/', statsRoutes)
    .route('/', statsReportRoutes)
    .route('/', pagesOperationRoutes)
    .route('/', toolRoutes)
    .route('/', fundingRoutes)
    .route('/', rotatorRoutes)
    .route('/', postbackSecretRoutes)
    .route('/', integrationRoutes)
    .route('/', platformSyncRoutes)
    .route('/', manageLiveintentRoutes)
    .route('/', forceSyncRoutes)

    .route('/', masterDashboardRoutes)
    .route('/', operatorRoutes)
    .route('/', trafficBannerRoutes)
    .route('/', trafficCpcRoutes)
    .route('/', creativeStatusRoutes);

  const app = new Hono<AppEnv>();
  app.onError(onError);
  app.use('/api/*', securityHeaders);
  app.use('/files/*', securityHeaders);
  app.use('/sanctum/*', securityHeaders);
  // Uploads carry their own body limit, so they are matched before the API's 1 MB one.
  app.route('/api', pagesUploadRoutes);
  app.route('/api', settingsUploadRoutes);
  app.route('/api', campaignUploadRoutes);
  app.route('/api', trafficBannerUploadRoutes);
  app.route('/api', trafficCpcUploadRoutes);
  app.route('/api', api);
  app.get('/sanctum/csrf-cookie', csrfCookieHandler);
  app.route('/files', fileRoutes);
  app.all('/api/*', (c) => c.json(errorBody('Not found.'), 404));

  // Tracking links never get here: worker/index.ts answers them before the app (their routes
  // come from settings, so they cannot be static routes). Everything else is the SPA: the assets
  // binding answers index.html.
  // /master-dashboard too, on every host: elsewhere than the operator's it says where the master
  // dashboard lives instead of redirecting (docs/decisions/137-reaching-the-master-dashboard.md).
  app.all('*', async (c) => withSecurityHeaders(await c.env.ASSETS.fetch(c.req.raw), pagePolicy(c.req.url)));
  app.notFound((c) => c.json(errorBody('Not found.'), 404));
  // No AppType export for hc<AppType>: web/ reads the answer types from schema/ instead
  // (docs/decisions/005-hand-typed-web-client.md).
  return { app };
}
