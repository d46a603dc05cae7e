import { env } from 'cloudflare:workers';
import { zipSync } from 'fflate';
import { api } from '../factories/api';

// The files the campaign transfer tests upload (campaign-list-transfer.test.ts,
// campaign-import-checks.test.ts), and the count that shows a refused file wrote nothing.

/** Uploads `file` as `name` in the form field `uploads`, with `fields` beside it, to `path`. */
export function upload(
  path: string,
  token: string,
  file: Blob | null,
  name: string,
  fields: Record<string, string> = {},
) {
  const form = new FormData();
  if (file) form.set('uploads', file, name);
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  return api(path, { token, body: form });
}

/** A ZIP of `files`, and a CSV of `text`, as the browser would send them. */
export const zipFile = (files: Record<string, Uint8Array>) =>
  new Blob([zipSync(files)], { type: 'application/zip' });
export const csvFile = (text: string) => new Blob([text], { type: 'text/csv' });

/** Campaigns (or what `sql` counts): before and after a refused file must be the same. */
export const count = async (sql = 'SELECT count(*) n FROM campaigns') =>
  (await env.DB.prepare(sql).first<{ n: number }>())?.n ?? 0;
