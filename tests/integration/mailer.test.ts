import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it } from 'vitest';
import { sendMail } from '../../worker/services/mail/mailer';

// The HTTP mail-API adapter against a fake of that API (tests/fakes is for ad platforms; this
// one is small enough to live here): every mail is kept in the outbox, and delivered when the
// API is configured.

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

const outbox = async () =>
  (await env.DB.prepare('SELECT "to", subject, status, error FROM mail_outbox ORDER BY id').all()).results;

describe('mailer', () => {
  it('keeps the mail in the outbox when no mail API is configured', async () => {
    await sendMail(
      { ...env, MAIL_API_URL: undefined, MAIL_API_KEY: undefined },
      { to: 'a@example.com', subject: 'Hi', text: 'x' },
    );
    expect(await outbox()).toEqual([{ to: 'a@example.com', subject: 'Hi', status: 'stored', error: null }]);
  });

  it('posts JSON with the bearer key to the mail API and marks the mail sent', async () => {
    const received: { url: string; auth: string | null; body: unknown }[] = [];
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      received.push({
        url: request.url,
        auth: request.headers.get('authorization'),
        body: await request.json(),
      });
      return new Response('{"id":"m1"}', { status: 202 });
    }) as typeof fetch;
    await sendMail(
      {
        ...env,
        MAIL_API_URL: 'https://mail.example/v1/send',
        MAIL_API_KEY: 'k-123',
        MAIL_FROM: 'Tracker <t@example.com>',
      },
      { to: 'b@example.com', subject: 'Reset', text: 'link' },
    );
    expect(received).toEqual([
      {
        url: 'https://mail.example/v1/send',
        auth: 'Bearer k-123',
        body: { from: 'Tracker <t@example.com>', to: 'b@example.com', subject: 'Reset', text: 'link' },
      },
    ]);
    expect((await outbox()).at(-1)).toEqual({
      to: 'b@example.com',
      subject: 'Reset',
      status: 'sent',
      error: null,
    });
  });

  it('marks the mail failed with the reason when the API refuses it, and keeps it', async () => {
    globalThis.fetch = (async () => new Response('nope', { status: 500 })) as typeof fetch;
    await sendMail(
      { ...env, MAIL_API_URL: 'https://mail.example/v1/send', MAIL_API_KEY: 'k' },
      { to: 'c@example.com', subject: 'S', text: 't' },
    );
    expect((await outbox()).at(-1)).toEqual({
      to: 'c@example.com',
      subject: 'S',
      status: 'failed',
      error: 'Error: mail API answered 500',
    });
  });
});
