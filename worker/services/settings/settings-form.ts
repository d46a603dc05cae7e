import { eq, inArray, sql } from 'drizzle-orm';
import { settings, users } from '../../../schema/auth';
import {
  BASIC_FIELDS,
  basicSettingsSchema,
  DEFAULT_RETRIEVE_DAYS,
  FAVICON_EXTENSIONS,
  FAVICON_MAX_BYTES,
  LI_OWN_FIELDS,
  LI_PERSONAL_FIELDS,
  LOGO_EXTENSIONS,
  LOGO_MAX_BYTES,
  liveIntentOwnSchema,
  liveIntentPersonalSchema,
  SETTINGS_MESSAGES as M,
  passwordChangeSchema,
  ROUTE_KEYS,
  type SettingsAnswer,
  UPDATE_SETTING_FIELD_ORDER,
  type UpdateSettingAnswer,
  wantsPasswordChange,
} from '../../../schema/settings-api';
import type { Env } from '../../env';
import { type AuthUser, roleString, signToken } from '../../lib/auth';
import { randomToken } from '../../lib/crypto';
import { getDb } from '../../lib/db';
import { ApiError, type FieldErrors, validationError, zodFieldErrors } from '../../lib/errors';
import { hashPassword, verifyPassword } from '../../lib/password';
import { decryptSecret, encryptSecret } from '../../lib/secrets';
import { isTimeZone } from '../../lib/timezones';
import { spendResetLinks } from '../auth/password-resets';
import { getSettings, invalidateSettings, type Settings } from './settings';

// The settings screen's form (spec 2 §2, §3, §5): what GET /api/settings shows and what
// POST /api/update-setting changes. Installation settings and LiveIntent credentials are the
// admin's; any user may change their own password here.

// ---- LiveIntent credentials (key/value rows; usernames and passwords encrypted) ------------

/** Storage keys of the LiveIntent sections; `secret` ones are stored encrypted. */
const LI_KEYS = {
  liAdvertiserId: { key: 'li_advertiser_id' },
  liAid: { key: 'li_aid' },
  liFetchEnable: { key: 'li_fetch_enable' },
  liUsername: { key: 'li_username', secret: true },
  liPassword: { key: 'li_password', secret: true },
  retrieveNumDays: { key: 'li_retrieve_num_days' },
  pliAdvertiserId: { key: 'pli_advertiser_id' },
  pliAid: { key: 'pli_aid' },
  pliFetchEnable: { key: 'pli_fetch_enable' },
  pliUsername: { key: 'pli_username', secret: true },
  pliPassword: { key: 'pli_password', secret: true },
  pretrieveNumDays: { key: 'pli_retrieve_num_days' },
  pliPauseAll: { key: 'pli_pause_all' },
} as const satisfies Record<string, { key: string; secret?: boolean }>;
type LiField = keyof typeof LI_KEYS;
const LI_STORAGE_KEYS = Object.values(LI_KEYS).map((k) => k.key);

/** The clear LiveIntent credentials, for the sync that a later release adds. */
export type LiveIntentAccount = {
  advertiserId: string;
  aid: string;
  fetchEnabled: boolean;
  username: string;
  password: string;
  retrieveNumDays: number;
};

async function readRows(env: Env, keys: string[]): Promise<Map<string, string>> {
  const rows = await getDb(env).select().from(settings).where(inArray(settings.key, keys)).all();
  return new Map(rows.map((r) => [r.key, r.value]));
}

function upserts(env: Env, values: Record<string, string>) {
  const db = getDb(env);
  return Object.entries(values).map(([key, value]) =>
    db
      .insert(settings)
      .values({ key, value })
      .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: sql`(unixepoch() * 1000)` } }),
  );
}

/** Both LiveIntent accounts in clear (null password when it cannot be decrypted here). */
export async function liveIntentAccounts(env: Env) {
  const rows = await readRows(env, LI_STORAGE_KEYS);
  const read = async (field: LiField) => {
    const spec = LI_KEYS[field];
    const raw = rows.get(spec.key) ?? '';
    return 'secret' in spec ? ((await decryptSecret(env, spec.key, raw)) ?? '') : raw;
  };
  const account = async (p: 'li' | 'pli', days: LiField): Promise<LiveIntentAccount> => ({
    advertiserId: await read(`${p}AdvertiserId` as LiField),
    aid: await read(`${p}Aid` as LiField),
    fetchEnabled: (await read(`${p}FetchEnable` as LiField)) === '1',
    username: await read(`${p}Username` as LiField),
    password: await read(`${p}Password` as LiField),
    retrieveNumDays: Number((await read(days)) || DEFAULT_RETRIEVE_DAYS),
  });
  return {
    own: await account('li', 'retrieveNumDays'),
    personal: {
      ...(await account('pli', 'pretrieveNumDays')),
      pauseAll: (await read('pliPauseAll')) === '1',
    },
  };
}

// ---- GET /api/settings ----------------------------------------------------------------------

const fileUrl = (key: string) => (key ? `/files/${key}` : '');

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

export async function settingsForm(env: Env, user: AuthUser, requestOrigin: string): Promise<SettingsAnswer> {
  const base = { username: user.username, userEmail: user.email, role: roleString(user.role) };
  if (user.role !== 'admin') return { ...base, canManage: false as const };
  const s = await getSettings(env, { fresh: true });
  const accounts = await liveIntentAccounts(env);
  const rows = await readRows(env, [LI_KEYS.liPassword.key, LI_KEYS.pliPassword.key]);
  const own = accounts.own;
  const personal = accounts.personal;
  return {
    ...base,
    canManage: true as const,
    baseUrl: s.base_url,
    email: s.email,
    title: s.title,
    favicon: fileUrl(s.favicon),
    logo: fileUrl(s.logo),
    timeZone: s.time_zone,
    customDomain: s.custom_domain,
    appDomain: hostOf(s.base_url),
    currentDomain: hostOf(requestOrigin),
    route_main: s.route_main,
    route_click: s.route_click,
    route_image: s.route_image,
    route_iframe: s.route_iframe,
    route_script: s.route_script,
    route_postback: s.route_postback,
    has_liveintent_account: Boolean(own.advertiserId && own.aid && own.username && own.password),
    liAdvertiserId: own.advertiserId,
    liAid: own.aid,
    liFetchEnable: own.fetchEnabled ? 1 : 0,
    liUsername: own.username,
    // Passwords are never answered, only whether one is stored.
    liPasswordSet: Boolean(rows.get(LI_KEYS.liPassword.key)),
    retrieveNumDays: own.retrieveNumDays,
    pliAdvertiserId: personal.advertiserId,
    pliAid: personal.aid,
    pliFetchEnable: personal.fetchEnabled ? 1 : 0,
    pliUsername: personal.username,
    pliPasswordSet: Boolean(rows.get(LI_KEYS.pliPassword.key)),
    pretrieveNumDays: personal.retrieveNumDays,
    pliPauseAll: personal.pauseAll ? 1 : 0,
  };
}

// ---- uploads: favicon and logo ----------------------------------------------------------------

type ImageKind = 'png' | 'jpeg' | 'ico';
const CONTENT_TYPES: Record<ImageKind, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  ico: 'image/x-icon',
};
const BRANDING_PREFIX = 'public/branding/';

/** What the first bytes say the file is. */
export function sniffImage(bytes: Uint8Array): ImageKind | null {
  const starts = (sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts([0xff, 0xd8, 0xff])) return 'jpeg';
  if (starts([0x00, 0x00, 0x01, 0x00]) && bytes.length >= 6 && (bytes[4] | bytes[5]) !== 0) return 'ico';
  return null;
}

const extensionOf = (name: string) => /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
const kindOfExtension = (ext: string): ImageKind | null =>
  ext === 'png' ? 'png' : ext === 'jpg' || ext === 'jpeg' ? 'jpeg' : ext === 'ico' ? 'ico' : null;

type CheckedImage = { bytes: Uint8Array; kind: ImageKind; ext: string };

/** An uploaded image whose extension is allowed and whose bytes are what the extension says. */
async function checkImage(
  file: File,
  allowed: readonly string[],
  maxBytes: number,
  messages: { type: string; size: string },
): Promise<CheckedImage | string> {
  const ext = extensionOf(file.name);
  if (!allowed.includes(ext)) return messages.type;
  if (file.size > maxBytes) return messages.size;
  const bytes = new Uint8Array(await file.arrayBuffer());
  const kind = sniffImage(bytes);
  if (!kind || kind !== kindOfExtension(ext)) return messages.type;
  return { bytes, kind, ext: ext === 'jpeg' ? 'jpg' : ext };
}

async function storeImage(env: Env, name: 'favicon' | 'logo', image: CheckedImage): Promise<string> {
  const key = `${BRANDING_PREFIX}${name}-${randomToken(9)}.${image.ext}`;
  await env.BUCKET.put(key, image.bytes, { httpMetadata: { contentType: CONTENT_TYPES[image.kind] } });
  return key;
}

async function dropImage(env: Env, key: string) {
  if (key.startsWith(BRANDING_PREFIX)) await env.BUCKET.delete(key).catch(() => undefined);
}

// ---- POST /api/update-setting ---------------------------------------------------------------

const first = (v: unknown) => (Array.isArray(v) ? v[0] : v);
const isFile = (v: unknown): v is File => v instanceof File && v.size > 0;
const truthy = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true' || v === 'on';

function addErrors(into: FieldErrors, more: FieldErrors) {
  for (const [field, messages] of Object.entries(more)) {
    into[field] ??= [];
    for (const m of messages) if (!into[field].includes(m)) into[field].push(m);
  }
}

function ordered(errors: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  for (const field of UPDATE_SETTING_FIELD_ORDER) if (errors[field]) out[field] = errors[field];
  for (const [field, messages] of Object.entries(errors)) out[field] ??= messages;
  return out;
}

export async function updateSettings(
  env: Env,
  user: AuthUser,
  rawBody: Record<string, unknown>,
): Promise<UpdateSettingAnswer> {
  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rawBody)) body[k] = first(v);

  const has = (fields: readonly string[]) => fields.some((f) => f in body);
  const wantsBasic = has(BASIC_FIELDS);
  const wantsOwn = has(LI_OWN_FIELDS);
  const wantsPersonal = has(LI_PERSONAL_FIELDS);
  const wantsFiles =
    isFile(body.favicon) || isFile(body.logo) || truthy(body.resetLogo) || truthy(body.resetFavicon);
  if ((wantsBasic || wantsOwn || wantsPersonal || wantsFiles) && user.role !== 'admin') {
    throw new ApiError(403, 'This action is unauthorized.');
  }
  const wantsPassword = wantsPasswordChange(body);

  const errors: FieldErrors = {};
  const current = await getSettings(env, { fresh: true });
  const stored = await readRows(env, LI_STORAGE_KEYS);
  const changes: Record<string, string> = {};

  // Installation settings. The favicon is never missing: the product ships a default one,
  // so 'Favicon field is required.' is satisfied by it (docs/decisions/020-settings-and-install-transfer.md).
  if (wantsBasic) {
    const result = basicSettingsSchema.safeParse(body);
    if (!result.success) addErrors(errors, zodFieldErrors(result.error.issues));
    else {
      const v = result.data;
      if (!isTimeZone(v.timeZone)) addErrors(errors, { timeZone: [M.timezoneInvalid] });
      const basic: Partial<Settings> = {
        base_url: v.baseUrl,
        email: v.email.toLowerCase(),
        title: v.title,
        time_zone: v.timeZone,
        custom_domain: v.customDomain,
      };
      for (const key of ROUTE_KEYS) basic[key] = v[key];
      Object.assign(changes, basic);
    }
  }

  let favicon: CheckedImage | null = null;
  let logo: CheckedImage | null = null;
  if (isFile(body.favicon)) {
    const checked = await checkImage(body.favicon, FAVICON_EXTENSIONS, FAVICON_MAX_BYTES, {
      type: M.faviconType,
      size: M.faviconSize,
    });
    if (typeof checked === 'string') addErrors(errors, { favicon: [checked] });
    else favicon = checked;
  }
  if (isFile(body.logo)) {
    const checked = await checkImage(body.logo, LOGO_EXTENSIONS, LOGO_MAX_BYTES, {
      type: M.logoType,
      size: M.logoSize,
    });
    if (typeof checked === 'string') addErrors(errors, { logo: [checked] });
    else logo = checked;
  }

  let newPasswordHash: string | null = null;
  if (wantsPassword) {
    const result = passwordChangeSchema.safeParse(body);
    const fieldErrors = result.success ? {} : zodFieldErrors(result.error.issues);
    const oldPassword = typeof body.oldPassword === 'string' ? body.oldPassword.replace(/\s+/g, '') : '';
    if (!fieldErrors.oldPassword && oldPassword) {
      const row = await getDb(env).select().from(users).where(eq(users.id, user.id)).get();
      const ok = row ? await verifyPassword(oldPassword, row.passwordHash, env.PASSWORD_PEPPER) : false;
      if (!ok) fieldErrors.oldPassword = [M.oldPasswordIncorrect];
    }
    addErrors(errors, fieldErrors);
    if (result.success && !Object.keys(fieldErrors).length) {
      newPasswordHash = await hashPassword(result.data.newPassword, env.PASSWORD_PEPPER);
    }
  }

  const liveIntent = async (
    schema: typeof liveIntentOwnSchema,
    fields: readonly string[],
    passwordField: 'liPassword' | 'pliPassword',
  ) => {
    const input: Record<string, unknown> = {
      passwordStored: Boolean(stored.get(LI_KEYS[passwordField].key)),
    };
    // A field left out keeps its stored value, so a section can be saved in parts.
    for (const field of fields) {
      const spec = LI_KEYS[field as LiField];
      if (field in body) input[field] = body[field];
      else if (field !== passwordField) {
        const raw = stored.get(spec.key) ?? '';
        input[field] = 'secret' in spec ? ((await decryptSecret(env, spec.key, raw)) ?? '') : raw;
      }
    }
    const result = schema.safeParse(input);
    if (!result.success) {
      addErrors(errors, zodFieldErrors(result.error.issues));
      return;
    }
    const values = result.data as Record<string, unknown>;
    for (const field of fields) {
      const spec = LI_KEYS[field as LiField];
      const value = values[field];
      if (field === passwordField) {
        // Blank keeps the stored password: it is never sent back to the screen.
        if (value) changes[spec.key] = await encryptSecret(env, spec.key, String(value));
        continue;
      }
      const text = value === undefined ? String(DEFAULT_RETRIEVE_DAYS) : String(value);
      changes[spec.key] = 'secret' in spec ? await encryptSecret(env, spec.key, text) : text;
    }
  };
  if (wantsOwn) await liveIntent(liveIntentOwnSchema, LI_OWN_FIELDS, 'liPassword');
  if (wantsPersonal) await liveIntent(liveIntentPersonalSchema, LI_PERSONAL_FIELDS, 'pliPassword');

  if (Object.keys(errors).length) throw validationError(ordered(errors));

  // Everything checked: store the images, then write the rows in one transaction.
  const dropAfter: string[] = [];
  if (favicon) {
    changes.favicon = await storeImage(env, 'favicon', favicon);
    if (current.favicon) dropAfter.push(current.favicon);
  } else if (truthy(body.resetFavicon)) {
    changes.favicon = '';
    if (current.favicon) dropAfter.push(current.favicon);
  }
  if (logo) {
    changes.logo = await storeImage(env, 'logo', logo);
    if (current.logo) dropAfter.push(current.logo);
  } else if (truthy(body.resetLogo)) {
    changes.logo = '';
    if (current.logo) dropAfter.push(current.logo);
  }

  const db = getDb(env);
  const statements = [
    ...upserts(env, changes),
    ...(newPasswordHash
      ? [
          db
            .update(users)
            .set({
              passwordHash: newPasswordHash,
              tokenVersion: sql`${users.tokenVersion} + 1`,
              updatedAt: Date.now(),
            })
            .where(eq(users.id, user.id)),
          // A reset link mailed before the change must not undo it.
          spendResetLinks(db, user.id),
        ]
      : []),
  ];
  if (statements.length) {
    const [head, ...rest] = statements;
    await db.batch([head, ...rest]);
  }
  invalidateSettings();
  for (const key of dropAfter) await dropImage(env, key);

  const after = await getSettings(env, { fresh: true });
  const answer: UpdateSettingAnswer = {
    message: M.updated,
    favicon: fileUrl(after.favicon),
    logo: fileUrl(after.logo),
    title: after.title,
  };
  if (newPasswordHash) {
    // Every token of the user was revoked with the version bump; this session carries on.
    const row = await db.select().from(users).where(eq(users.id, user.id)).get();
    answer.token = await signToken(env, row!);
  }
  return answer;
}
