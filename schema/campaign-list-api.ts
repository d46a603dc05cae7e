import { z } from 'zod';
import { type CampaignFields, optionalId, requiredId } from './campaign-api';
import { NAME_MAX, NAME_TOO_LONG, optionalString } from './validators';

// The API contract of the campaigns list (spec 1 §4, §5, §7, §8; spec 2 §7 delete and import):
// folders, moving, delete and undo, clone, export, CSV upload and ZIP import. Messages quoted
// in the spec are used word for word (their spelling included); the others say plainly what
// is wrong.

export const LIST_MESSAGES = {
  campaignRequired: 'Campaign is required.',
  campaignsRequired: 'Select at least one campaign.',
  tooManyCampaigns: 'Select at most 500 campaigns at a time.',
  campaignNotFound: 'Campaign not found.',
  folderNotFound: 'Folder not found.',
  folderInvalid: 'Select a valid folder.',
  folderNameRequired: 'Folder name is required.',
  moveIntoItself: 'A folder cannot be moved into itself or one of its subfolders.',
  moved: 'Campaign moved successfully.',
  movedMany: 'Campaigns moved successfully.',
  folderCreated: 'Folder created successfully.',
  folderRenamed: 'Folder renamed successfully.',
  folderNameUnchanged: 'The folder name was empty, so it was left unchanged.',
  deleted: 'Campaigns Deleted Successfully.',
  restored: 'Campaigns restored successfully.',
  cloned: 'Campaign cloned succesfully.',
  exportedOne: 'Campaign exported Succesfully.',
  exportedMany: 'Campaigns exported Succesfully.',
  csvUploaded: 'Campaign has successfully uploaded.',
  imported: 'Campaign successfully imported.',
  // Spec 2 §8: an import that fails without a message of its own.
  importFailed: 'Encountered error, please try again.',
  // Confirmations (spec 1 §8): the UI fills in the brackets.
  confirmResetStats: 'Are you sure you want to reset statistics? This operation cannot be undone.',
  // Files (spec 1 §5, spec 2 §5).
  csvRequired: 'Select csv file for upload.',
  csvInvalid: 'Select Valid Csv file.',
  zipRequired: 'Select zip file for upload.',
  zipInvalid: 'Select valid zip file.',
  csvTooLarge: 'The CSV file is too large: the limit is 1 MB.',
  zipTooLarge: 'The zip file is too large: the limit is 10 MB.',
  csvHeader: 'The first line of the CSV file must be a header row with a name column.',
  csvEmpty: 'The CSV file has no campaigns below its header row.',
  csvTooManyRows: 'The CSV file has more than 500 campaigns; split it into smaller files.',
  zipCorrupt: 'The zip file is damaged and cannot be read.',
  zipTooManyEntries: 'The zip file has more than 20 entries; it is not a campaign export.',
  zipTooBig: 'The zip file unpacks to more than 50 MB; it is not a campaign export.',
  zipUnsafeName: 'The zip file contains an unsafe entry name',
  zipNoManifest: 'The zip file is not a campaign export: manifest.json is missing.',
  manifestInvalid: 'The campaign export is not valid',
  manifestNewer: 'This export was made by a newer version of the tracker; update this installation first.',
  importTooLarge: 'The export holds more than 500 campaigns or 20,000 items; split it into smaller exports.',
  userInvalid: 'Select a valid user.',
} as const;

const M = LIST_MESSAGES;

/** At most this many campaigns in one delete, undo, move or export call. */
const MAX_IDS_PER_CALL = 500;

const toList = (v: unknown) => {
  if (v === undefined || v === null || v === '') return [];
  const list = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [v];
  return list.map((x) => (typeof x === 'string' ? (x.trim() === '' ? Number.NaN : Number(x.trim())) : x));
};

/**
 * Ids as a number, '1,2,3' (the spec's comma-joined form) or an array; answers the distinct
 * positive ids in the order given. `optionalIdList` may be empty.
 */
const optionalIdList = (message: string = M.campaignsRequired) =>
  z.preprocess(
    toList,
    // Checked as a whole, so an error names the field rather than one of its elements.
    z
      .array(z.unknown(), { error: message })
      .refine((list) => list.every((x) => typeof x === 'number' && Number.isInteger(x) && x > 0), message)
      .refine((list) => list.length <= MAX_IDS_PER_CALL, M.tooManyCampaigns)
      .transform((ids) => [...new Set(ids as number[])]),
  );

const idList = (message: string = M.campaignsRequired) =>
  optionalIdList(message).refine((ids) => ids.length > 0, message);

/** POST /api/move-campaign: campaignId (one id, or several comma-joined) and dir (0/null = top level). */
export const moveCampaignSchema = z.object({
  campaignId: idList(M.campaignRequired),
  dir: optionalId(),
});
export const MOVE_FIELD_ORDER = ['campaignId', 'dir'] as const;

/** POST /api/add-campaign-folder: name, dir, moveCampaigns (ids to move into the new folder). */
export const addFolderSchema = z.object({
  name: z.preprocess(
    (v) => (v === undefined || v === null ? '' : v),
    z
      .string({ error: M.folderNameRequired })
      .trim()
      .min(1, M.folderNameRequired)
      .max(NAME_MAX, NAME_TOO_LONG),
  ),
  dir: optionalId(),
  moveCampaigns: optionalIdList(M.campaignsRequired),
});
export const ADD_FOLDER_FIELD_ORDER = ['name', 'dir', 'moveCampaigns'] as const;

/** POST /api/edit-campaign-folder: a name that is empty after trimming is ignored (spec 1 §4). */
export const editFolderSchema = z.object({
  campaignId: requiredId(M.campaignRequired),
  name: optionalString(NAME_MAX, NAME_TOO_LONG),
});
export const EDIT_FOLDER_FIELD_ORDER = ['campaignId', 'name'] as const;

const permanentFlag = z.preprocess(
  (v) => {
    if (v === undefined || v === null || v === '' || v === false || v === 0 || v === '0' || v === 'false')
      return 0;
    if (v === true || v === 1 || v === '1' || v === 'true') return 1;
    return v;
  },
  z.union([z.literal(0), z.literal(1)], { error: 'Use 1 or 0.' }),
);

/** DELETE /api/delete-campaign: campaignId comma-joined, isPermanent 0/1 (spec 2 §7). */
export const deleteCampaignsSchema = z.object({
  campaignId: idList(),
  isPermanent: permanentFlag,
});
export const DELETE_FIELD_ORDER = ['campaignId', 'isPermanent'] as const;

/** POST /api/undo-delete-campaign: campaignId comma-joined. */
export const undoDeleteSchema = z.object({ campaignId: idList() });

/** POST /api/clone and POST /api/export-campaign. */
export const oneCampaignSchema = z.object({ campaignId: requiredId(M.campaignRequired) });

/** POST /api/export-campaigns: campaign_ids as an array or comma-joined. */
export const exportCampaignsSchema = z.object({ campaign_ids: idList() });

// ---- CSV upload (POST /api/uploadcsv) --------------------------------------------------------

/**
 * Columns a campaigns CSV may have (header row required, any order, case-insensitive; only
 * `name` is required). Each line goes through the same rules as add-campaign, so a value the
 * editor would refuse is refused here with the same message.
 */
export const CSV_COLUMNS = [
  'name',
  'campaignType',
  'trafficSource',
  'urlAppendToken',
  'keywordParameter',
  'affiliate_network',
  'offerPromotion',
  'active',
  'custom_url',
  'lpTargetParam',
  'opTargetParam',
  'cpc',
  'redirectType',
  'customConversionGoal',
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

export const MAX_CSV_BYTES = 1024 * 1024;
export const MAX_CSV_ROWS = 500;

// ---- ZIP export and import -------------------------------------------------------------------

export const MAX_ZIP_BYTES = 10 * 1024 * 1024;
export const MAX_ZIP_ENTRIES = 20;
export const MAX_ZIP_UNPACKED_BYTES = 50 * 1024 * 1024;
export const MAX_IMPORT_CAMPAIGNS = 500;
export const MAX_IMPORT_ITEMS = 20_000;

/** The manifest of a campaign export (docs/campaign-transfer.md describes every field). */
export const MANIFEST_FORMAT = 'edge-tracker/campaigns';
export const MANIFEST_VERSION = 1;
export const MANIFEST_NAME = 'manifest.json';

const ref = z.number().int().positive();
const flag01 = z.union([z.literal(0), z.literal(1)]);

/**
 * The shape of a manifest, checked before any of it is used. Field values are then checked
 * again by the add-campaign, landing, offer, path, option and token rules of campaign-api.ts.
 */
export const manifestSchema = z.object({
  format: z.literal(MANIFEST_FORMAT),
  version: z.number().int().positive(),
  exportedAt: z.string().optional(),
  campaigns: z
    .array(
      z.object({
        ref,
        parentRef: ref.nullable(),
        is_dir: flag01,
        name: z.string(),
        campaign: z.record(z.string(), z.unknown()).optional(),
        paths: z.array(z.object({ ref }).catchall(z.unknown())).default([]),
        options: z.array(z.object({ ref }).catchall(z.unknown())).default([]),
        landings: z.array(z.object({ ref }).catchall(z.unknown())).default([]),
        offers: z.array(z.object({ ref }).catchall(z.unknown())).default([]),
        tokens: z.array(z.record(z.string(), z.unknown())).default([]),
      }),
    )
    .min(1),
});
export type Manifest = z.output<typeof manifestSchema>;

// ---- answers ---------------------------------------------------------------------------------

/** A row of the campaigns list (GET /api/campaign with dir): spec 1 §3 plus what the list shows. */
export type CampaignListItem = {
  campaignId: number;
  name: string;
  /** 1 for a folder. */
  is_dir: number;
  dir: number;
  deleted: number;
  active: number;
  campaignType: string;
  trafficSource: string;
  offerPromotion: string;
};

export type CampaignListAnswer = {
  result: CampaignListItem[];
  currentDir: { campaignId: number; dir: number; name: string };
};

/** POST /api/move-campaign. */
export type MoveAnswer = { message: string; moved: number };
/** POST /api/add-campaign-folder. */
export type AddFolderAnswer = { message: string; folder: CampaignListItem; moved: number };
/** POST /api/edit-campaign-folder: changed is false when the new name was empty. */
export type RenameFolderAnswer = { message: string; changed: boolean; folder: CampaignListItem };
/** DELETE /api/delete-campaign: campaignId is the comma-joined ids, deleted how many went. */
export type DeleteCampaignsAnswer = {
  message: string;
  campaignId: string;
  isPermanent: number;
  deleted: number;
};
/** POST /api/undo-delete-campaign. */
export type UndoDeleteAnswer = { message: string; restored: number };
/** POST /api/clone: `resultt` (the spec's spelling) is the new campaign. */
export type CloneAnswer = { message: string; resultt: CampaignFields };
/** POST /api/export-campaign and /api/export-campaigns: a signed link to the ZIP. */
export type ExportCampaignsAnswer = { message: string; downloadLink: string };
/** POST /api/uploadcsv and /api/import-campaigns: the campaigns (top-level rows) made. */
export type CampaignUploadAnswer = { uploaded: boolean; message: string; result: CampaignListItem[] };
/** POST /api/uploadcsv: count is the campaigns made. */
export type CsvUploadAnswer = CampaignUploadAnswer & { count: number };
/** POST /api/import-campaigns: how many campaigns and folders were made. */
export type ZipImportAnswer = CampaignUploadAnswer & { campaigns: number; folders: number };
