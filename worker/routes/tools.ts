import { Hono } from 'hono';
import {
  type ClearTestConversionsAnswer,
  LINK_BUILDER_FIELD_ORDER,
  LINK_TEST_FIELD_ORDER,
  type LinkBuilderAnswer,
  type LinkTestAnswer,
  linkBuilderSchema,
  linkTestSchema,
  TEST_CLICK_FIELD_ORDER,
  TEST_POSTBACK_FIELD_ORDER,
  type TestClickAnswer,
  type TestConversionsAnswer,
  type TestPostbackAnswer,
  type TrafficSourcesAnswer,
  testClickSchema,
  testConversionsQuerySchema,
  testPostbackSchema,
} from '../../schema/tools-api';
import type { AppEnv } from '../env';
import { anyRole, requireAuth } from '../lib/auth';
import { parseInput, readBody, validate } from '../lib/validate';
import { buildLink, TRAFFIC_SOURCES_INFO } from '../services/tools/link-builder';
import { linkTest } from '../services/tools/link-test';
import { clearTestConversions, listTestConversions, makeTestClick } from '../services/tools/test-clicks';
import { testPostback } from '../services/tools/test-postback';
import { classifyUserAgent } from '../tracking/device';
import { handleTracking } from '../tracking/handler';

// The Tools screen's API (docs/api.md "Tools"): link tester, postback tester, link builder.
// Every role, on the campaigns it manages (services/campaigns.ts campaignForUser and ownedBy).

const origin = (url: string) => new URL(url).origin;

export const toolRoutes = new Hono<AppEnv>()
  .use('/tools/*', requireAuth, anyRole)
  .get('/tools/traffic-sources', (c) =>
    c.json({ data: { result: TRAFFIC_SOURCES_INFO } satisfies TrafficSourcesAnswer }),
  )
  .post('/tools/link-test', validate('json', linkTestSchema, LINK_TEST_FIELD_ORDER), async (c) => {
    const answer = await linkTest(
      c.env,
      c.get('user'),
      c.req.valid('json'),
      origin(c.req.url),
      classifyUserAgent,
    );
    return c.json({ data: answer satisfies LinkTestAnswer });
  })
  .post('/tools/test-clicks', validate('json', testClickSchema, TEST_CLICK_FIELD_ORDER), async (c) => {
    return c.json(
      {
        data: (await makeTestClick(
          c.env,
          c.get('user'),
          c.req.valid('json'),
          origin(c.req.url),
        )) satisfies TestClickAnswer,
      },
      201,
    );
  })
  .post(
    '/tools/test-postback',
    validate('json', testPostbackSchema, TEST_POSTBACK_FIELD_ORDER),
    async (c) => {
      const answer = await testPostback(
        c.env,
        c.get('user'),
        c.req.valid('json'),
        origin(c.req.url),
        (request) => handleTracking(request, c.env, c.executionCtx),
      );
      return c.json({ data: answer satisfies TestPostbackAnswer });
    },
  )
  .get('/tools/test-conversions', validate('query', testConversionsQuerySchema), async (c) => {
    const { campaignId } = c.req.valid('query');
    return c.json({
      data: {
        result: await listTestConversions(c.env, c.get('user'), campaignId),
      } satisfies TestConversionsAnswer,
    });
  })
  .delete('/tools/test-conversions', async (c) => {
    const body = { ...Object.fromEntries(new URL(c.req.url).searchParams), ...(await readBody(c)) };
    const { campaignId } = parseInput(testConversionsQuerySchema, body);
    return c.json({
      data: (await clearTestConversions(
        c.env,
        c.get('user'),
        campaignId,
      )) satisfies ClearTestConversionsAnswer,
    });
  })
  .post('/tools/link-builder', validate('json', linkBuilderSchema, LINK_BUILDER_FIELD_ORDER), async (c) => {
    return c.json({
      data: (await buildLink(
        c.env,
        c.get('user'),
        c.req.valid('json'),
        origin(c.req.url),
      )) satisfies LinkBuilderAnswer,
    });
  });
