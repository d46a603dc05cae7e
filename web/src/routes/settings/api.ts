// The settings screen's calls (docs/api.md "Settings"): one function per call, so the panes
// never spell paths. Multipart calls go through the shared upload with progress. Answer types
// are schema's (schema/settings-api.ts), the ones the worker answers with.
import type { LicenseDeactivateAnswer } from '../../../../schema/auth-api';
import type {
  CredentialAnswer,
  CredentialRevokedAnswer,
  CredentialsAnswer,
} from '../../../../schema/masterdashboard-api';
import type {
  EndLegacyGraceAnswer,
  PostbackSecretAnswer,
  RotatePostbackSecretAnswer,
} from '../../../../schema/postback-secret-api';
import type {
  CleanRecordsAnswer,
  ExportInstallAnswer,
  FindAnswer,
  FindField,
  ImportInstallAnswer,
  InstallationSettings,
  ReplaceAnswer,
  SettingsAnswer,
  UpdateSettingAnswer,
} from '../../../../schema/settings-api';
import { api } from '../../api/client';
import { useApi } from '../../api/hooks';
import { type UploadProgress, uploadWithProgress } from '../../components/file-upload';

export type { FindAnswer, InstallationSettings };

export const SETTINGS_PATH = 'settings';

export const useSettings = () => useApi<SettingsAnswer>(SETTINGS_PATH, { revalidateOnFocus: false });

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

export const cleanRecords = (confirm: string) => api.delete<CleanRecordsAnswer>('clean-records', { confirm });

export const exportInstall = () => api.get<ExportInstallAnswer>('export-install');

/** POST /api/import-install (multipart: file, rand). */
export function importInstall(file: File, onProgress?: (progress: UploadProgress) => void) {
  const form = new FormData();
  form.append('file', file, file.name);
  form.append('rand', Math.random().toString(36).slice(2));
  return uploadWithProgress<ImportInstallAnswer>('import-install', form, { onProgress });
}

export const dbFind = (input: { field: FindField; find: string; replace: string }) =>
  api.post<FindAnswer>('db-find', input);

export const dbReplace = (input: { field: FindField; find: string; replace: string }) =>
  api.post<ReplaceAnswer>('db-replace', input);

export const deactivateLicense = () => api.post<LicenseDeactivateAnswer>('license/deactivate', {});

/** The installation's postback secret and its grace period (admins; docs/decisions/120). */
const POSTBACK_SECRET_PATH = 'postback-secret';
export const usePostbackSecret = (enabled: boolean) =>
  useApi<PostbackSecretAnswer>(enabled ? POSTBACK_SECRET_PATH : null, { revalidateOnFocus: false });

export const rotatePostbackSecret = () => api.post<RotatePostbackSecretAnswer>('postback-secret/rotate', {});

export const endLegacyGrace = () => api.post<EndLegacyGraceAnswer>('postback-secret/legacy/end', {});

// ---- Master-dashboard (operator) credentials, docs/decisions/080 and 137 ------------------------

const OPERATOR_CREDENTIALS_PATH = 'masterdashboard-credentials';

export const useOperatorCredentials = (enabled: boolean) =>
  useApi<CredentialsAnswer>(enabled ? OPERATOR_CREDENTIALS_PATH : null, { revalidateOnFocus: false });

export const createOperatorCredential = (label: string) =>
  api.post<CredentialAnswer>(OPERATOR_CREDENTIALS_PATH, { label });

export const revokeOperatorCredential = (id: number) =>
  api.delete<CredentialRevokedAnswer>(`${OPERATOR_CREDENTIALS_PATH}/${id}`);
