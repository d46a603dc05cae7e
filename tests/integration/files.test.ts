import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { signedDownloadPath } from '../../worker/lib/r2';
import { api } from '../factories/api';

describe('files from R2', () => {
  it('serves a signed download with its name, and refuses a tampered or expired link', async () => {
    await env.BUCKET.put('exports/a.csv', 'id,name\n1,Alpha\n', {
      httpMetadata: { contentType: 'text/csv' },
    });
    const path = await signedDownloadPath(env, 'exports/a.csv', 'Campaign.csv');
    const ok = await api(path);
    expect(ok.status).toBe(200);
    expect(ok.body).toBe('id,name\n1,Alpha\n');
    expect(ok.headers.get('content-disposition')).toBe('attachment; filename="Campaign.csv"');

    const tampered = await api(path.replace('exports%2Fa.csv', 'exports%2Fb.csv'));
    expect(tampered.status).toBe(403);
    expect(tampered.body.message).toBe('This download link is invalid or has expired.');

    const expired = await signedDownloadPath(env, 'exports/a.csv', 'Campaign.csv', -5);
    expect((await api(expired)).status).toBe(403);
  });

  it('serves public assets only under public/', async () => {
    await env.BUCKET.put('public/logo.png', new Uint8Array([137, 80, 78, 71]), {
      httpMetadata: { contentType: 'image/png' },
    });
    await env.BUCKET.put('exports/secret.csv', 'secret');
    const logo = await api('/files/public/logo.png');
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/png');
    expect((await api('/files/public/../exports/secret.csv')).status).toBe(404);
    expect((await api('/files/exports/secret.csv')).status).toBe(404);
  });
});
