import { type Context, Hono } from 'hono';
import { optionalId } from '../../schema/campaign-api';
import {
  ADD_FOLDER_FIELD_ORDER,
  type AddFolderAnswer,
  addFolderSchema,
  type CloneAnswer,
  type CsvUploadAnswer,
  DELETE_FIELD_ORDER,
  type DeleteCampaignsAnswer,
  deleteCampaignsSchema,
  EDIT_FOLDER_FIELD_ORDER,
  type ExportCampaignsAnswer,
  editFolderSchema,
  exportCampaignsSchema,
  LIST_MESSAGES as M,
  MAX_ZIP_BYTES,
  MOVE_FIELD_ORDER,
  type MoveAnswer,
  moveCampaignSchema,
  oneCampaignSchema,
  type RenameFolderAnswer,
  type UndoDeleteAnswer,
  undoDeleteSchema,
  type ZipImportAnswer,
} from '../../schema/campaign-list-api';
import type { AppEnv } from '../env';
import { anyRole, requireAuth } from '../lib/auth';
import { ApiError } from '../lib/errors';
import { parseInput, readBody } from '../lib/validate';
import { uploadBodyLimit } from '../lib/zip';
import {
  addFolder,
  deleteCampaigns,
  moveCampaigns,
  renameFolder,
  undoDelete,
} from '../services/campaigns/campaign-tree';
import { cloneCampaign } from '../services/transfer/campaign-clone';
import { exportCampaigns } from '../services/transfer/campaign-export';
import { uploadOwner } from '../services/transfer/campaign-files';
import { type CampaignUpload, importCsv, importZip } from '../services/transfer/campaign-import';

// The campaigns list of spec 1 (§4, §7) and the delete and import calls of spec 2 §7. The rules
// live in services/campaigns/campaign-tree.ts (folders, move, delete, undo) and
// services/transfer/campaign-*.ts (clone, export, CSV and ZIP import); docs/api.md lists the
// payloads and answers.

/** JSON (or form) calls; mounted under the API's 1 MB body limit. */
export const campaignListRoutes = new Hono<AppEnv>()
  .post('/move-campaign', requireAuth, anyRole, async (c) => {
    const input = parseInput(moveCampaignSchema, await readBody(c), MOVE_FIELD_ORDER);
    const answer = await moveCampaigns(c.env, c.get('user'), input.campaignId, input.dir);
    return c.json({ data: answer satisfies MoveAnswer });
  })
  .post('/add-campaign-folder', requireAuth, anyRole, async (c) => {
    const input = parseInput(addFolderSchema, await readBody(c), ADD_FOLDER_FIELD_ORDER);
    const answer = await addFolder(c.env, c.get('user'), {
      name: input.name,
      dir: input.dir,
      moveIds: input.moveCampaigns,
    });
    return c.json({ data: answer satisfies AddFolderAnswer }, 201);
  })
  .post('/edit-campaign-folder', requireAuth, anyRole, async (c) => {
    const input = parseInput(editFolderSchema, await readBody(c), EDIT_FOLDER_FIELD_ORDER);
    const answer = await renameFolder(c.env, c.get('user'), input.campaignId, input.name);
    return c.json({ data: answer satisfies RenameFolderAnswer });
  })
  .delete('/delete-campaign', requireAuth, anyRole, async (c) => {
    // The body carries the fields (spec 2 §7); the query string is accepted as well, since
    // some clients drop a DELETE's body.
    const body = { ...c.req.query(), ...(await readBody(c)) };
    const input = parseInput(deleteCampaignsSchema, body, DELETE_FIELD_ORDER);
    const answer = await deleteCampaigns(c.env, c.get('user'), input.campaignId, input.isPermanent === 1);
    return c.json({ data: answer satisfies DeleteCampaignsAnswer });
  })
  .post('/undo-delete-campaign', requireAuth, anyRole, async (c) => {
    const input = parseInput(undoDeleteSchema, await readBody(c), ['campaignId']);
    return c.json({
      data: (await undoDelete(c.env, c.get('user'), input.campaignId)) satisfies UndoDeleteAnswer,
    });
  })
  .post('/clone', requireAuth, anyRole, async (c) => {
    const input = parseInput(oneCampaignSchema, await readBody(c), ['campaignId']);
    const answer = await cloneCampaign(c.env, c.get('user'), input.campaignId);
    return c.json({ data: answer satisfies CloneAnswer }, 201);
  })
  .post('/export-campaign', requireAuth, anyRole, async (c) => {
    const input = parseInput(oneCampaignSchema, await readBody(c), ['campaignId']);
    const answer = await exportCampaigns(c.env, c.get('user'), [input.campaignId]);
    return c.json({ data: answer satisfies ExportCampaignsAnswer });
  })
  .post('/export-campaigns', requireAuth, anyRole, async (c) => {
    const input = parseInput(exportCampaignsSchema, await readBody(c), ['campaign_ids']);
    const answer = await exportCampaigns(c.env, c.get('user'), input.campaign_ids);
    // The spec's plural message whenever the many-campaigns call was used.
    return c.json({ data: { ...answer, message: M.exportedMany } satisfies ExportCampaignsAnswer });
  });

/** Upload bodies: the file limit plus room for the other multipart fields. */
const UPLOAD_BODY_LIMIT = MAX_ZIP_BYTES + 256 * 1024;

async function multipart(c: Context<AppEnv>): Promise<FormData> {
  const type = c.req.header('content-type') ?? '';
  if (!type.includes('multipart/form-data')) return new FormData();
  try {
    return await c.req.formData();
  } catch {
    throw new ApiError(400, 'The upload could not be read. Please choose the file again.');
  }
}

const fileOf = (form: FormData) => form.get('uploads') ?? form.get('uploads[]') ?? form.get('file');

const dirOf = (form: FormData) =>
  parseInput(
    optionalId().transform((dir) => ({ dir })),
    form.get('dir') ?? null,
    ['dir'],
  ).dir;

/** The upload form: the owner first (the caller, or whom an admin or coach names), the file, the folder. */
async function campaignUpload(c: Context<AppEnv>): Promise<CampaignUpload> {
  const form = await multipart(c);
  const ownerId = await uploadOwner(c.env, c.get('user'), form.get('userId'));
  return { file: fileOf(form), dir: dirOf(form), ownerId };
}

/**
 * Multipart uploads. Mounted before the API's 1 MB JSON limit with a limit of their own; every
 * file is checked again in the service (size, extension, content).
 */
export const campaignUploadRoutes = new Hono<AppEnv>()
  .use('/uploadcsv', uploadBodyLimit(UPLOAD_BODY_LIMIT, M.csvTooLarge))
  .use('/import-campaigns', uploadBodyLimit(UPLOAD_BODY_LIMIT, M.zipTooLarge))
  .post('/uploadcsv', requireAuth, anyRole, async (c) => {
    const answer = await importCsv(c.env, c.get('user'), await campaignUpload(c));
    return c.json({ data: answer satisfies CsvUploadAnswer });
  })
  .post('/import-campaigns', requireAuth, anyRole, async (c) => {
    const answer = await importZip(c.env, c.get('user'), await campaignUpload(c));
    return c.json({ data: answer satisfies ZipImportAnswer });
  });
