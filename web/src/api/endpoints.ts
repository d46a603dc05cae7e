// One function per call of the API, so screens and loaders never spell paths themselves. The
// answer types come from schema/*-api.ts, the same types the worker's routes answer with
// (docs/decisions/005-hand-typed-web-client.md).
import type {
  CreateUserInput,
  LicenseAnswer,
  LoginAnswer,
  LoginInput,
  LoginLink,
  MessageAnswer,
  PasswordVerifyAnswer,
  SessionTokenAnswer,
  StartupAnswer,
  StartupInput,
  UserChangeAnswer,
} from '../../../schema/auth-api';
import type { Role } from '../../../schema/roles';
import type {
  AggregateJobAnswer,
  DismissAlertAnswer,
  ExportStatisticsAnswer,
  ItemStatusAnswer,
  ItemStatusManyAnswer,
  LandingJobAnswer,
  LandingStatusAnswer,
  QueueAggregateAnswer,
  QuickStats,
  StatisticsAnswer,
  StatisticsRequestBody,
  StatisticsTotalAnswer,
  TargetJobAnswer,
} from '../../../schema/stats-api';
import { api, fetchCsrfCookie } from './client';

// The statistics screens import these answer types from here; they are schema's, re-exported.
export type {
  AggregateResult,
  CampaignAlert,
  ElementRow,
  LandingRecord,
  LandingResult,
  OfferRecord,
  PathRecord,
  QuickStats,
  StatisticsAnswer,
  StatisticsRequestBody,
  StatsExtraToken,
  StatsMetric,
  StatsTotals,
  TargetRecord,
  TargetResult,
  TestResult,
  TestSummary,
} from '../../../schema/stats-api';
export type { LoginInput };

export const paths = {
  logo: 'logo',
  timezones: 'timezones',
  setupCreated: 'setup-created',
  currentUser: 'user',
  users: 'users',
  license: 'license',
} as const;

export const getSetupCreated = () => api.get<boolean>(paths.setupCreated);

// The login call's 401 is its answer ('Username or Password are incorrect'), never a timeout.
export const login = (input: LoginInput) =>
  api.post<LoginAnswer>('auth/login', input, { skipAuthRedirect: true });

export const logout = () => api.post<MessageAnswer>('auth/logout', {}, { skipAuthRedirect: true });

export const applicationStartup = (input: StartupInput) =>
  api.post<StartupAnswer>('auth/application_startup', input);

/** GET /sanctum/csrf-cookie, then POST session-to-token with the X-XSRF-TOKEN header. */
export async function sessionToToken(): Promise<SessionTokenAnswer> {
  const xsrf = await fetchCsrfCookie();
  if (!xsrf) throw new Error('No CSRF cookie');
  return api.post<SessionTokenAnswer>(
    'auth/session-to-token',
    {},
    { headers: { 'X-XSRF-TOKEN': decodeURIComponent(xsrf) }, skipAuthRedirect: true },
  );
}

export const activateLicense = (input: { email: string; licenseKey: string }) =>
  api.post<LicenseAnswer>('license/activate', input);

export const requestPasswordReset = (input: { email: string }) =>
  api.post<MessageAnswer>('auth/password/email', input);

export const verifyPasswordReset = (email: string, token: string) =>
  api.get<PasswordVerifyAnswer>('auth/password/verify', { query: { email, token } });

export const resetPassword = (input: {
  email: string;
  token: string;
  password: string;
  password_confirmation: string;
}) => api.post<MessageAnswer>('auth/password/reset', input);

export const register = (input: { name: string; email: string; password: string }) =>
  api.post<UserChangeAnswer>('auth/register', input);

export const createUser = (input: CreateUserInput) => api.post<UserChangeAnswer>('registeruser', input);

export const changeUserRole = (id: number, role: Role) =>
  api.put<UserChangeAnswer>(`users/${id}/role`, { role });

export const createLoginLink = (userId: number) => api.post<LoginLink>('auth/login-token', { userId });

// ---- Statistics, aggregator, costs and dashboard (docs/api.md "Statistics") ----------------

export const statsPaths = {
  campaignOptions: 'campaign?no_dir=1',
  today: 'stats-today',
} as const;

/** POST /api/statistics; with totalOnly it queues the totals job alone and answers less. */
export function postStatistics(
  body: StatisticsRequestBody & { totalOnly: true },
  signal?: AbortSignal,
): Promise<StatisticsTotalAnswer>;
export function postStatistics(body: StatisticsRequestBody, signal?: AbortSignal): Promise<StatisticsAnswer>;
export function postStatistics(body: StatisticsRequestBody, signal?: AbortSignal) {
  return api.post<StatisticsAnswer | StatisticsTotalAnswer>('statistics', body, { signal, quiet: true });
}

export const getTargetStatistics = (uuid: string, signal?: AbortSignal) =>
  api.post<TargetJobAnswer>('get-target-statistics', { uuid }, { signal, quiet: true });

export const getLandingStatistics = (key: string, signal?: AbortSignal) =>
  api.post<LandingJobAnswer>('get-landing-statistics', { key }, { signal, quiet: true });

export const exportStatistics = (
  body: StatisticsRequestBody & {
    targetData: string[];
    landingData: string[];
    tables?: string[];
    format?: 'csv' | 'xlsx';
    breakdownBy?: string;
  },
) => api.post<ExportStatisticsAnswer>('export-statistics', body);

export const updateLandingStatus = (landingId: number, status: 0 | 1) =>
  api.post<LandingStatusAnswer>('update-landing-status', { landingId, status });

export const updateOfferStatus = (offerId: number, status: 0 | 1) =>
  api.post<ItemStatusAnswer>('update-offer-status', { offerId, status });

export const updatePathStatus = (pathId: number, status: 0 | 1) =>
  api.post<ItemStatusAnswer>('update-path-status', { pathId, status });

export const updateLandingStatusMany = (landingIds: number[], status: 0 | 1) =>
  api.post<ItemStatusManyAnswer>('update-landing-status-many', { landingIds, status });

export const dismissAlert = (campaignId: number, index: number) =>
  api.delete<DismissAlertAnswer>(`campaigns/${campaignId}/alerts/${index}`);

export const queueAggregate = (body: StatisticsRequestBody, signal?: AbortSignal) =>
  api.post<QueueAggregateAnswer>('queue-aggregate', body, { signal });

export const getAggregate = (uuid: string, signal?: AbortSignal) =>
  api.post<AggregateJobAnswer>('get-aggregate', { uuid }, { signal });

/** Dates 'yyyy-MM-dd' (the dashboard's format). */
export const quickStatsV2 = (input: { start_date: string; end_date: string; campaignId: number }) =>
  api.post<QuickStats>('quick-stats-v2', input);

export const saveCost = (input: {
  campaignId: number;
  date: string;
  target: string;
  impressions: string;
  ad_clicks: string;
  spend: string;
}) => api.post<MessageAnswer>('costs', input);

export const deleteCost = (input: { campaignId: number; date: string; target: string; source: string }) =>
  api.delete<MessageAnswer>('costs', input);
