import { z } from 'zod';
import type { CorrectionRecord, ReportDay, ReportTotal } from './masterdashboard-api';

// The operator installation's central calls (/api/operator/, spec 4 §7) and its registry of
// student installations. Answer types are shared by the worker and the master-dashboard screen.

export const OPERATOR_MESSAGES = {
  nameRequired: 'Enter the student’s name.',
  domainInvalid: 'Enter the installation’s address, e.g. https://student.example.com.',
  domainNotPublic: 'The installation’s address must be a public http or https address',
  credentialRequired: 'Enter the installation’s master-dashboard credential.',
  duplicate: 'An installation with this domain or student id hash already exists.',
  notFound: 'Student installation not found.',
  notOperator: 'The master dashboard is served on the operator’s host only.',
  studentsRequired: 'Please select at least one student!',
  saved: 'Student installation saved.',
  removed: 'Student installation removed.',
} as const;

const text = (max: number) => z.preprocess((v) => (v == null ? '' : String(v).trim()), z.string().max(max));

/**
 * An installation's base URL: http(s), no query or fragment, no trailing slash. A path is
 * allowed for an installation served under a prefix behind a proxy (https://host/tracker).
 */
const domain = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().replace(/\/+$/, '') : v),
  z.string({ error: OPERATOR_MESSAGES.domainInvalid }).refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'https:' || u.protocol === 'http:') && !u.search && !u.hash && !u.username;
    } catch {
      return false;
    }
  }, OPERATOR_MESSAGES.domainInvalid),
);

export const installationInputSchema = z.object({
  name: text(100).refine((s) => s.length > 0, OPERATOR_MESSAGES.nameRequired),
  domain,
  server: text(100),
  student_id_hash: text(64),
  credential: text(200),
});
export type InstallationInput = z.output<typeof installationInputSchema>;
export const INSTALLATION_FIELD_ORDER = ['name', 'domain', 'server', 'student_id_hash', 'credential'];

/** A student as the screens see it (spec 3 §3): the credential never leaves the worker. */
export type Student = { id: number; name: string; server: string; domain: string; id_hash: string };

/** An installation that did not answer in time (or answered an error). */
export type Unavailable = { id_hash: string; name: string; domain: string; error: string };

export type StudentReport = Student & { total: ReportTotal };

/** GET /api/operator/status */
export type OperatorStatusAnswer = { operator: boolean };
/** GET /api/operator/students */
export type StudentsAnswer = { students: Student[] };
/** POST /api/operator/students-data: the selected students' totals, fanned out live. */
export type StudentsDataAnswer = { students: StudentReport[]; unavailable: Unavailable[] };
/** GET /api/operator/all-students-reports: every student's totals from the cache. */
export type AllStudentsReportsAnswer = {
  students: (StudentReport & { refreshed_at: number | null; error: string | null })[];
  total: ReportTotal;
};
/** GET /api/operator/student-campaigns */
export type StudentCampaignsAnswer = {
  student: Student;
  campaigns: ({ campaign_id: number; name: string } & ReportTotal)[];
};
/** GET /api/operator/campaign-data */
export type StudentCampaignDataAnswer = {
  student: Student;
  campaign_id: number;
  name: string;
  days: ReportDay[];
};
/** GET /api/operator/campaign-total */
export type StudentCampaignTotalAnswer = {
  student: Student;
  campaign_id: number;
  name: string;
  total: ReportTotal;
};
/** POST /api/operator/update-student-data */
export type UpdateStudentDataAnswer = { student: Student; total: ReportTotal; days: number };
/** POST /api/operator/modify/{verb}: the installation's answer; status_code 500 when it failed. */
/** POST and PUT /api/operator/installations: the saved installation. */
export type InstallationSavedAnswer = { student: Student; message: string };
/** DELETE /api/operator/installations/{id}. */
export type InstallationRemovedAnswer = { message: string };

export type OperatorModifyAnswer = { status_code: number; message: string; corrections: CorrectionRecord[] };
