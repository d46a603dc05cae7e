import { eq } from 'drizzle-orm';
import { mailOutbox } from '../../../schema/auth';
import type { Env } from '../../env';
import { getDb } from '../../lib/db';

export type Mail = { to: string; subject: string; text: string };

/**
 * Every mail is kept in the outbox (developers read it at /api/dev/outbox, tests assert on
 * it). When MAIL_API_URL and MAIL_API_KEY are set, it is also posted to that HTTP mail API
 * as JSON {from, to, subject, text} with a bearer key.
 */
export async function sendMail(env: Env, mail: Mail): Promise<void> {
  const db = getDb(env);
  const row = await db.insert(mailOutbox).values(mail).returning({ id: mailOutbox.id }).get();
  if (!env.MAIL_API_URL || !env.MAIL_API_KEY) return;
  try {
    const response = await fetch(env.MAIL_API_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${env.MAIL_API_KEY}` },
      body: JSON.stringify({ from: env.MAIL_FROM, ...mail }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`mail API answered ${response.status}`);
    await db.update(mailOutbox).set({ status: 'sent' }).where(eq(mailOutbox.id, row.id));
  } catch (err) {
    await db
      .update(mailOutbox)
      .set({ status: 'failed', error: String(err).slice(0, 500) })
      .where(eq(mailOutbox.id, row.id));
  }
}
