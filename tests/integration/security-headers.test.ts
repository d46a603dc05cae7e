import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import headersFile from '../../web/public/_headers?raw';
import { SECURITY_HEADERS } from '../../worker/lib/security-headers';
import { api } from '../factories/api';
import { setupInstallation } from '../factories/install';

// Every page of the SPA, its assets and the API carry the same security headers
// (docs/decisions/040); the SPA itself has no inline script or style for the CSP to refuse.

const navigate = (path: string) =>
  SELF.fetch(`http://tracker.test${path}`, {
    headers: { 'sec-fetch-mode': 'navigate', accept: 'text/html' },
    redirect: 'manual',
  });

function expectSecurityHeaders(headers: Headers, what: string) {
  const csp = headers.get('content-security-policy') ?? '';
  for (const directive of [
    "script-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ]) {
    expect(csp, `${what}: ${directive}`).toContain(directive);
  }
  expect(csp, what).not.toContain('unsafe-inline');
  expect(csp, what).not.toContain('unsafe-eval');
  expect(headers.get('strict-transport-security'), what).toMatch(/^max-age=\d{8,}/);
  expect(headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(headers.get('referrer-policy'), what).toBe('strict-origin-when-cross-origin');
  expect(headers.get('x-frame-options'), what).toBe('DENY');
}

describe('security headers', () => {
  it("let only the conversion tracker page load LiveIntent's tag, still with no inline script", async () => {
    await setupInstallation();
    const tracker = await navigate('/conversion-tracker');
    expect(tracker.status).toBe(200);
    await tracker.text();
    expectSecurityHeaders(tracker.headers, '/conversion-tracker');
    expect(tracker.headers.get('content-security-policy')).toContain(
      "script-src 'self' https://b-code.liadm.com;",
    );
    const login = await navigate('/login');
    await login.text();
    expect(login.headers.get('content-security-policy')).not.toContain('liadm');
  });

  it('are on every SPA page, signed out and for deep links', async () => {
    await setupInstallation();
    for (const path of [
      '/',
      '/login',
      '/dashboard',
      '/campaigns',
      '/basic-info/12',
      '/setting',
      '/no-such-page',
    ]) {
      const res = await navigate(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toContain('text/html');
      expectSecurityHeaders(res.headers, path);
      await res.text();
    }
  });

  it('are on API answers, errors included', async () => {
    for (const path of ['/api/setup-created', '/api/user', '/api/no-such-call']) {
      const res = await api(path);
      expectSecurityHeaders(res.headers, path);
    }
  });

  it('are on the built script and stylesheet files', async () => {
    const html = await (await navigate('/')).text();
    const files = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(files.some((f) => f.endsWith('.js'))).toBe(true);
    expect(files.some((f) => f.endsWith('.css'))).toBe(true);
    for (const file of files) {
      const res = await SELF.fetch(`http://tracker.test${file}`);
      expect(res.status, file).toBe(200);
      expectSecurityHeaders(res.headers, file);
      await res.arrayBuffer();
    }
  });

  it('the SPA page has no inline script, inline style or event-handler attribute', async () => {
    const html = await (await navigate('/')).text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/\bsrc="\/assets\//);
      expect(body.trim()).toBe('');
    }
    expect(html).not.toMatch(/<style\b/i);
    expect(html).not.toMatch(/\sstyle=/i);
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });

  it('web/public/_headers (for files the Worker never sees) says the same as the Worker', () => {
    const fromFile: Record<string, string> = {};
    for (const line of headersFile.split('\n')) {
      const m = /^\s+([A-Za-z-]+):\s*(.+)$/.exec(line);
      if (m) fromFile[m[1].toLowerCase()] = m[2].trim();
    }
    expect(fromFile).toEqual(SECURITY_HEADERS);
  });
});
