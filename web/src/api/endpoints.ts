// One function per call of the API, so screens and loaders never spell paths themselves.
import type { CreateUserInput, StartupInput } from '../../../schema/auth-api';
import type { Role } from '../../../schema/roles';
import { api, fetchCsrfCookie } from './client';
import type {
  ChangeRoleAnswer,
  CreateUserAnswer,
  LicenseInfo,
  LoginAnswer,
  LoginLink,
  MessageAnswer,
  SessionTokenAnswer,
  StartupAnswer,
} from './types';

export const paths = {
  logo: 'logo',
  timezones: 'timezones',
  setupCreated: 'setup-created',
  currentUser: 'user',
  users: 'users',
  license: 'license',
} as const;

export const getSetupCreated = () => api.get<boolean>(paths.setupCreated);

export type LoginInput = { username: string; password: string; loginToken: string; hash: string };

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
  api.post<LicenseInfo>('license/activate', input);

export const requestPasswordReset = (input: { email: string }) =>
  api.post<MessageAnswer>('auth/password/email', input);

export const verifyPasswordReset = (email: string, token: string) =>
  api.get<{ valid: boolean }>('auth/password/verify', { query: { email, token } });

export const resetPassword = (input: {
  email: string;
  token: string;
  password: string;
  password_confirmation: string;
}) => api.post<MessageAnswer>('auth/password/reset', input);

export const register = (input: { name: string; email: string; password: string }) =>
  api.post<MessageAnswer>('auth/register', input);

export const createUser = (input: CreateUserInput) => api.post<CreateUserAnswer>('registeruser', input);

export const changeUserRole = (id: number, role: Role) =>
  api.put<ChangeRoleAnswer>(`users/${id}/role`, { role });

export const createLoginLink = (userId: number) => api.post<LoginLink>('auth/login-token', { userId });

// ---- Statistics, aggregator, costs and dashboard (docs/api.md "Statistics") ----------------

/** A campaign of GET /api/campaign?no_dir=1 (the selectors of the statistics and dashboard screens). */
export type CampaignOption = {
  campaignId: number;
  name: string;
  is_dir: number;
  deleted: number;
  active: number;
  campaignType: string;
  trafficSource: string;
  offerPromotion: string;
};

/** An alert of the campaign's metainfo (raised by the optimiser and the system checks). */
export type CampaignAlert = { type?: string; message: string; created_at?: number; key?: string };

export type StatsTotals = {
  visitsTotal: number;
  clicksTotal: number;
  impressionsTotal: number;
  conversionsTotal: number;
  crTotal: number;
  ctrTotal: number;
  lpclicksTotal: number;
  lpctrTotal: number;
  ad_cpc_total: number;
  lp_cpc_total: number;
  roi_total: number;
  ad_spent: number;
  revenue: number;
  net: number;
  cpa: number;
  epc_total?: number;
};

/** A target (creative) row: the spec's columns, extra-token values and custom event counts. */
export type TargetRecord = {
  target: string;
  visits: number;
  impressions: number;
  clicks: number;
  conversions: number;
  custom_events?: Record<string, number>;
  [column: string]: unknown;
};

export type TestResult = {
  against: number | string;
  is_significant: boolean;
  best_variant: 0 | 1 | 2;
  p_value: number;
};
export type TestSummary = { better: number; worst: number; insignificants: number; total_tests: number };

export type LandingRecord = {
  page_id: number;
  landing_page: string;
  url: string;
  visits: number;
  conversions: number;
  lpclicks: number;
  lpctr: number;
  cr: number;
  /** Money written '$1,234.56'; the numbers are in the *_value fields. */
  cpa: string;
  ad_spent: string;
  revenue: string;
  net?: string;
  active: number;
  deleted: number;
  test_data: TestResult[];
  test_summary: TestSummary;
};

export type OfferRecord = {
  offer_id: number;
  offer_name: string;
  visits: number;
  liConversionName: string;
  conversion: number;
  revenue?: number;
  cr: number;
  active: number;
  deleted: number;
};

export type PathRecord = {
  path_id: number;
  path_name: string;
  visits: number;
  conversion: number;
  cr: number;
  active: number;
  deleted: number;
};

export type StatsMetric = { name: string; parameter: string; ticked: boolean };
export type StatsExtraToken = { token_name: string; parameter: string; default: boolean };

export type StatisticsRequestBody = {
  campaignId: number | null;
  /** dd-MM-yyyy or '' (open) */
  startDate: string;
  endDate: string;
  part?: 'all' | 'target';
  totalOnly?: boolean;
  extraTokens?: string[];
  landingDeletedStatus?: boolean;
  offerDeletedStatus?: boolean;
  pathDeletedStatus?: boolean;
  currentPage?: number;
  perPage?: number;
  search?: string;
  sortKey?: string;
  sortOrder?: 'asc' | 'desc';
  landingCurrentPage?: number;
  landingPerPage?: number;
  landingTargetSearch?: string;
  landingSortKey?: string;
  landingSortOrder?: 'asc' | 'desc';
  landingsTotalOnly?: boolean;
  force?: boolean;
};

export type StatisticsAnswer = {
  campaign: {
    campaignId: number;
    name: string;
    campaignType?: string;
    trafficSource?: string;
    offerPromotion?: string;
    metainfo?: { alerts?: CampaignAlert[] };
  };
  queueId: string;
  landingQueueKey?: string | null;
  campaignVisits?: number;
  extraTokens?: StatsExtraToken[];
  metrics?: StatsMetric[];
  offer?: {
    offerRecords: OfferRecord[];
    offerTotal: { visitsTotal: number; conversionsTotal: number; crTotal: number; revenue?: number };
  } | null;
  path?: {
    pathRecords: PathRecord[];
    pathTotal: { visitsTotal: number; conversionsTotal: number; crTotal: number };
  } | null;
};

export type TargetResult = {
  targetRecords?: TargetRecord[];
  currentPage?: number;
  totalCount?: number;
  targetTotal: StatsTotals;
};
export type LandingResult = {
  landingRecords: LandingRecord[];
  landingCount: number;
  landingCurrentPage: number;
  landingTotal: StatsTotals;
};
export type JobAnswer<T> = { done: boolean; error: string | null; data: T };

export type ElementRow = {
  position: number;
  page: string;
  landingIds: number[];
  visits: number;
  lpClicks: number;
  lpCTR: number;
  conversions: number;
  cr: number;
  cpa: number;
  adSpent: number;
  revenue: number;
  netProfit: number;
  status: 0 | 1;
  test_data: TestResult[];
  test_summary: TestSummary;
};
export type AggregateResult = { separator: string; positions: ElementRow[][] };

export type QuickStats = {
  liveintent: { reports: { date: string; advertiserSpent: number; clicks: number; impressions: number }[] };
  visitors: { date: string; visitors: number; lpclicks: number; revenue: number }[];
  conversions: { date: string; conversions: number }[];
};

export type CostRow = {
  date: string;
  target: string;
  source: string;
  impressions: number;
  ad_clicks: number;
  spend: number;
  updated_at: number;
};

export const statsPaths = {
  campaignOptions: 'campaign?no_dir=1',
  today: 'stats-today',
} as const;

export const postStatistics = (body: StatisticsRequestBody, signal?: AbortSignal) =>
  api.post<StatisticsAnswer>('statistics', body, { signal });

export const getTargetStatistics = (uuid: string, signal?: AbortSignal) =>
  api.post<{ done: boolean; error: string | null; data: { data: TargetResult | null } }>(
    'get-target-statistics',
    { uuid },
    { signal },
  );

export const getLandingStatistics = (key: string, signal?: AbortSignal) =>
  api.post<JobAnswer<LandingResult | null>>('get-landing-statistics', { key }, { signal });

export const exportStatistics = (
  body: StatisticsRequestBody & { targetData: string[]; landingData: string[] },
) =>
  api.post<{ downloadLink: string | null; message?: string; fileName?: string }>('export-statistics', body);

export const updateLandingStatus = (landingId: number, status: 0 | 1) =>
  api.post<{ status: boolean; active: number; message: string }>('update-landing-status', {
    landingId,
    status,
  });

export const updateOfferStatus = (offerId: number, status: 0 | 1) =>
  api.post<{ active: number }>('update-offer-status', { offerId, status });

export const updatePathStatus = (pathId: number, status: 0 | 1) =>
  api.post<{ active: number }>('update-path-status', { pathId, status });

export const updateLandingStatusMany = (landingIds: number[], status: 0 | 1) =>
  api.post<{ updated: number; active: number }>('update-landing-status-many', { landingIds, status });

export const dismissAlert = (campaignId: number, index: number) =>
  api.delete<{ message: string; alerts: CampaignAlert[] }>(`campaigns/${campaignId}/alerts/${index}`);

export const queueAggregate = (body: StatisticsRequestBody, signal?: AbortSignal) =>
  api.post<{ uuid: string }>('queue-aggregate', body, { signal });

export const getAggregate = (uuid: string, signal?: AbortSignal) =>
  api.post<JobAnswer<AggregateResult | null>>('get-aggregate', { uuid }, { signal });

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
}) => api.post<{ message: string }>('costs', input);

export const deleteCost = (input: { campaignId: number; date: string; target: string; source: string }) =>
  api.delete<{ message: string }>('costs', input);
