// The master dashboard's calls to the operator's central service (/api/operator/, spec 4 §7).
// Answer types come from schema/operator-api.ts.
import type { ModifyVerb } from '../../../../schema/masterdashboard-api';
import type {
  AllStudentsReportsAnswer,
  InstallationRemovedAnswer,
  InstallationSavedAnswer,
  OperatorModifyAnswer,
  OperatorStatusAnswer,
  StudentCampaignDataAnswer,
  StudentCampaignsAnswer,
  StudentsAnswer,
  StudentsDataAnswer,
} from '../../../../schema/operator-api';
import { ApiError, api } from '../../api/client';
import { notify } from '../../components/toaster';
import { requireAuth } from '../../lib/guards';

export type Range = { start_date: string; end_date: string };

export const MD_ERRORS = {
  students: 'Failed to fetch students list',
  campaigns: 'Failed to fetch student campaigns',
  allReports: 'Error fetching all student reports!',
  studentsData: 'Error fetching students data',
  campaignData: 'Error fetching campaign data',
  campaignDataAlert: 'Failed to fetch campaign data.',
  selectStudent: 'Please select at least one student!',
} as const;

/**
 * A failed call's toast: the spec's words as its title (spec 3 §8), and what the server said, when
 * it said something, under it; a 401 says nothing more (the sign-in takes over).
 */
export function notifyMdFailure(err: unknown, message: (typeof MD_ERRORS)[keyof typeof MD_ERRORS]) {
  const reason = err instanceof ApiError && err.status !== 401 ? err.firstMessage : undefined;
  notify.error(message, reason ? { description: reason } : undefined);
}

/**
 * /master-dashboard: signed in first; then whether this host is the operator's. On any other host
 * the screen says what the master dashboard is and where it lives, where the spec redirected to
 * the dashboard without a word (docs/decisions/137-reaching-the-master-dashboard.md).
 */
export async function masterDashboardLoader(args: Parameters<typeof requireAuth>[0]) {
  await requireAuth(args);
  let operator = false;
  try {
    operator = (await api.get<OperatorStatusAnswer>(OPERATOR_STATUS_PATH)).operator;
  } catch {
    operator = false;
  }
  return { operator };
}

const OPERATOR_STATUS_PATH = 'operator/status';

export const mdApi = {
  students: () => api.get<StudentsAnswer>('operator/students'),
  studentsData: (students: string[], r: Range) =>
    api.post<StudentsDataAnswer>('operator/students-data', { students, ...r }),
  allReports: (r: Range) => api.get<AllStudentsReportsAnswer>('operator/all-students-reports', { query: r }),
  campaigns: (hash: string, r: Range) =>
    api.get<StudentCampaignsAnswer>('operator/student-campaigns', { query: { student_id_hash: hash, ...r } }),
  campaignData: (hash: string, campaignId: number, r: Range) =>
    api.get<StudentCampaignDataAnswer>('operator/campaign-data', {
      query: { student_id_hash: hash, campaign_id: campaignId, ...r },
    }),
  modify: (verb: ModifyVerb, fields: Record<string, string | number>) =>
    api.post<OperatorModifyAnswer>(`operator/modify/${verb}`, fields),
  refresh: (domain: string, r: Range) => api.post('operator/update-student-data', { domain, ...r }),
  saveInstallation: (id: number | null, body: Record<string, string>) =>
    id
      ? api.put<InstallationSavedAnswer>(`operator/installations/${id}`, body)
      : api.post<InstallationSavedAnswer>('operator/installations', body),
  removeInstallation: (id: number) => api.delete<InstallationRemovedAnswer>(`operator/installations/${id}`),
};
