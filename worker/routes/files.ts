import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { ApiError } from '../lib/errors';
import { dispositionName, PUBLIC_PREFIX, verifyDownload } from '../lib/r2';

/** Public assets (logo, favicon) and signed downloads (exports) from R2. */
export const fileRoutes = new Hono<AppEnv>()
  .get('/download', async (c) => {
    const link = await verifyDownload(c.env, new URL(c.req.url).searchParams);
    if (!link) throw new ApiError(403, 'This download link is invalid or has expired.');
    const object = await c.env.BUCKET.get(link.key);
    if (!object) throw new ApiError(404, 'The file no longer exists.');
    const headers = new Headers();
    object.writeHttpMetadata(headers);
    headers.set('content-disposition', `attachment; filename="${dispositionName(link.name)}"`);
    headers.set('cache-control', 'private, no-store');
    return new Response(object.body, { headers });
  })
  .get('/public/*', async (c) => {
    const key = c.req.path.replace(/^\/files\//, '');
    if (!key.startsWith(PUBLIC_PREFIX) || key.includes('..')) throw new ApiError(404, 'Not found.');
    const object = await c.env.BUCKET.get(key);
    if (!object) throw new ApiError(404, 'Not found.');
    const headers = new Headers();
    object.writeHttpMetadata(headers);
    headers.set('etag', object.httpEtag);
    headers.set('cache-control', 'public, max-age=300');
    headers.set('x-content-type-options', 'nosniff');
    return new Response(object.body, { headers });
  })
  .all('*', () => {
    throw new ApiError(404, 'Not found.');
  });
