// The settings screen's calls (docs/api.md "Settings"): one function per call, so the panes
// never spell paths. Multipart calls go through the shared upload with progress.
import type { FindField, FindMatch } from '../../../../schema/settings-api';
import { api } from '../../api/client';
import { useApi } from '../../api/hooks';
import { type UploadProgress, uploadWithProgress } from '../../components/file-upload';

export const SETTINGS_PATH = 'settings';

type Common = { username: string; userEmail: string; role: string };

/** data of GET /api/settings for an admin: the installation's settings, secrets only as flags. */
export type InstallationSettings = Common & {
  canManage: true;
  baseUrl: string;
  email: string;
  title: string;
  favicon: string;
  logo: string;
  timeZone: string;
  customDomain: string;
  appDomain: string;
  currentDomain: string;
  route_main: string;
  route_click: string;
  route_image: string;
  route_iframe: string;
  route_script: string;
  route_postback: string;
  has_liveintent_account: boolean;
  liAdvertiserId: string;
  liAid: string;
  liFetchEnable: 0 | 1;
  liUsername: string;
  liPasswordSet: boolean;
  retrieveNumDays: number;
  pliAdvertiserId: string;
  pliAid: string;
  pliFetchEnable: 0 | 1;
  pliUsername: string;
  pliPasswordSet: boolean;
  pretrieveNumDays: number;
  pliPauseAll: 0 | 1;
};

/** data of GET /api/settings for a coach or student: their own account only. */
export type OwnSettings = Common & { canManage: false };
export type SettingsAnswer = InstallationSettings | OwnSettings;

export const useSettings = () => useApi<SettingsAnswer>(SETTINGS_PATH, { revalidateOnFocus: false });

export type UpdateSettingAnswer = {
  message: string;
  favicon: string;
  logo: string;
  title: string;
  token?: string;
};

/** POST /api/update-setting (multipart: fields, favicon, logo, resetLogo, passwords). */
export function updateSetting(
  fields: Record<string, string | number | File | null | undefined>,
  onProgress?: (progress: UploadProgress) => void,
) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (value === null || value === undefined) continue;
    if (value instanceof File) form.append(key, value, value.name);
    else form.append(key, String(value));
  }
  return uploadWithProgress<UpdateSettingAnswer>('update-setting', form, { onProgress });
}

export const cleanRecords = (confirm: string) =>
  api.delete<{ message: string }>('clean-records', { confirm });

export const exportInstall = () =>
  api.get<{ downloadLink: string; message: string; rows: number }>('export-install');

export type ImportAnswer = {
  message: string;
  rand: string;
  rows: number;
  tables: { name: string; rows: number }[];
};

/** POST /api/import-install (multipart: file, rand). */
export function importInstall(file: File, onProgress?: (progress: UploadProgress) => void) {
  const form = new FormData();
  form.append('file', file, file.name);
  form.append('rand', Math.random().toString(36).slice(2));
  return uploadWithProgress<ImportAnswer>('import-install', form, { onProgress });
}

export type FindAnswer = { results: FindMatch[]; total: number; field: FindField };

export const dbFind = (input: { field: FindField; find: string; replace: string }) =>
  api.post<FindAnswer>('db-find', input);

export const dbReplace = (input: { field: FindField; find: string; replace: string }) =>
  api.post<{ count: number; message: string }>('db-replace', input);

export const deactivateLicense = () =>
  api.post<{ status: string; message: string }>('license/deactivate', {});
