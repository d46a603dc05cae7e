import { Hono } from 'hono';
import {
  type CleanRecordsAnswer,
  cleanRecordsSchema,
  DB_FIND_FIELD_ORDER,
  dbFindSchema,
  type ExportInstallAnswer,
  FAVICON_MAX_BYTES,
  type FindAnswer,
  IMPORT_MAX_BYTES,
  type ImportInstallAnswer,
  LOGO_MAX_BYTES,
  SETTINGS_MESSAGES as M,
  type ReplaceAnswer,
  type SettingsAnswer,
  type UpdateSettingAnswer,
} from '../../schema/settings-api';
import type { AppEnv } from '../env';
import { requireAuth, requireRole } from '../lib/auth';
import { limitedBody } from '../lib/body';
import { signedDownloadPath } from '../lib/r2';
import { parseInput, readBody } from '../lib/validate';
import { dbFind, dbReplace } from '../services/settings/find-replace';
import { settingsForm, updateSettings } from '../services/settings/settings-form';
import { exportInstall } from '../services/transfer/install-export';
import { importInstall } from '../services/transfer/install-import';
import { cleanRecords } from '../services/transfer/install-tables';

// The settings screen (spec 2 §2, §7): the form, delete-all-records, install export and
// find-and-replace. Uploads live in settingsUploadRoutes with their own body limits.

export const settingsRoutes = new Hono<AppEnv>()
  .get('/settings', requireAuth, async (c) => {
    const answer = await settingsForm(c.env, c.get('user'), new URL(c.req.url).origin);
    return c.json({ data: answer satisfies SettingsAnswer });
  })
  .delete('/clean-records', requireAuth, requireRole('admin'), async (c) => {
    parseInput(cleanRecordsSchema, await readBody(c), ['confirm']);
    await cleanRecords(c.env);
    return c.json({ data: { message: M.recordsDeleted } satisfies CleanRecordsAnswer });
  })
  .get('/export-install', requireAuth, requireRole('admin'), async (c) => {
    const file = await exportInstall(c.env);
    const downloadLink = await signedDownloadPath(c.env, file.key, file.name);
    return c.json({
      data: { downloadLink, message: M.exported, rows: file.rows } satisfies ExportInstallAnswer,
    });
  })
  .post('/db-find', requireAuth, async (c) => {
    const input = parseInput(dbFindSchema, await readBody(c), DB_FIND_FIELD_ORDER);
    return c.json({ data: (await dbFind(c.env, c.get('user'), input)) satisfies FindAnswer });
  })
  .post('/db-replace', requireAuth, async (c) => {
    const input = parseInput(dbFindSchema, await readBody(c), DB_FIND_FIELD_ORDER);
    return c.json({ data: (await dbReplace(c.env, c.get('user'), input)) satisfies ReplaceAnswer });
  });

/** Multipart calls carrying files; mounted before the API's 1 MB JSON limit. */
export const settingsUploadRoutes = new Hono<AppEnv>()
  .post(
    '/update-setting',
    requireAuth,
    limitedBody(FAVICON_MAX_BYTES + LOGO_MAX_BYTES + 256 * 1024),
    async (c) => {
      const answer = await updateSettings(c.env, c.get('user'), await readBody(c));
      return c.json({ data: answer satisfies UpdateSettingAnswer });
    },
  )
  .post(
    '/import-install',
    requireAuth,
    requireRole('admin'),
    // A file just over the limit still reaches the handler's own message; far over is a 413.
    limitedBody(IMPORT_MAX_BYTES * 2),
    async (c) => {
      const body = await readBody(c);
      const file = Array.isArray(body.file) ? body.file[0] : body.file;
      const result = await importInstall(c.env, c.get('user'), file);
      const rand = typeof body.rand === 'string' ? body.rand : '';
      return c.json({ data: { message: M.imported, rand, ...result } satisfies ImportInstallAnswer });
    },
  );
