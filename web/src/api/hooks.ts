// swr hooks over the typed client: screens read data through these, never through fetch.
import useSWR, { type SWRConfiguration } from 'swr';
import type { CurrentUserAnswer, LicenseAnswer, LogoAnswer, UsersAnswer } from '../../../schema/auth-api';
import type { CampaignListAnswer } from '../../../schema/campaign-list-api';
import type { CostsAnswer } from '../../../schema/costs-api';
import type { ActivityPoint, QuickStats, StatsTodayAnswer } from '../../../schema/stats-api';
import { isoDay } from '../lib/format';
import { KEYS, readKey } from '../lib/storage';
import { api } from './client';
import { paths, quickStatsV2, statsPaths } from './endpoints';

type Key = string | readonly [string, ...unknown[]];

/** The default fetcher: the key is the API path, or [path, ...parts that only split the cache]. */
const swrFetcher = <T>(key: Key) => api.get<T>(typeof key === 'string' ? key : key[0]);

export function useApi<T>(key: Key | null, config?: SWRConfiguration<T>) {
  return useSWR<T>(key, swrFetcher, config);
}

const STATIC = { revalidateOnFocus: false, revalidateIfStale: false, dedupingInterval: 60_000 };

export const useLogo = () => useApi<LogoAnswer>(paths.logo, STATIC);

export const useTimezones = () => useApi<string[]>(paths.timezones, STATIC);

export const useLicense = () => useApi<LicenseAnswer>(paths.license, { revalidateOnFocus: false });

/** The signed-in user; asks only when a token is stored. */
export function useCurrentUser() {
  const token = readKey(KEYS.token);
  // The token is part of the key so that another sign-in never shows the previous user.
  return useApi<CurrentUserAnswer>(token ? [paths.currentUser, token] : null, { revalidateOnFocus: false });
}

export const useUsers = (enabled: boolean) => useApi<UsersAnswer>(enabled ? paths.users : null);

// ---- Statistics and dashboard ----------------------------------------------------------------

/** The campaigns of the statistics and dashboard selectors (no folders, no deleted ones). */
export const useCampaignOptions = () =>
  useApi<CampaignListAnswer>(statsPaths.campaignOptions, { revalidateOnFocus: false });

/**
 * The installation's day ('YYYY-MM-DD' in its time zone): quick date ranges, date checks and the
 * LiveIntent forms' default dates count from it, as the server does. null while it loads; the
 * browser's day only when it cannot be read.
 */
export function useInstallationToday(): string | null {
  const info = useApi<StatsTodayAnswer>(statsPaths.today, { revalidateOnFocus: false });
  return info.data?.today ?? (info.error ? isoDay(new Date()) : null);
}

/** Daily visitors of a campaign (dates dd-MM-yyyy or '' for open ends). */
export function useCampaignActivity(campaignId: number | null, startDate: string, endDate: string) {
  const key = campaignId
    ? `campaign-activity?campaignId=${campaignId}&startDate=${encodeURIComponent(startDate)}&endDate=${encodeURIComponent(endDate)}`
    : null;
  return useApi<ActivityPoint[]>(key, { revalidateOnFocus: false });
}

/** Cost rows of a campaign (dates yyyy-MM-dd or '' for open ends). */
export function useCosts(campaignId: number | null, startDate: string, endDate: string) {
  const key = campaignId ? `costs?campaignId=${campaignId}&startDate=${startDate}&endDate=${endDate}` : null;
  return useApi<CostsAnswer>(key, { revalidateOnFocus: false });
}

/** The dashboard's daily series (POST quick-stats-v2, dates yyyy-MM-dd). */
export function useQuickStats(campaignId: number | null, start: string, end: string) {
  return useSWR<QuickStats>(
    campaignId ? ['quick-stats-v2', campaignId, start, end] : null,
    () => quickStatsV2({ start_date: start, end_date: end, campaignId: campaignId as number }),
    { revalidateOnFocus: false, keepPreviousData: true },
  );
}

/** The version the installation now serves (the build's version.json, never cached). */
async function servedVersion(): Promise<string | null> {
  const res = await fetch('/version.json', { cache: 'no-store', headers: { accept: 'application/json' } });
  if (!res.ok) return null;
  const body = (await res.json().catch(() => null)) as { version?: unknown } | null;
  return typeof body?.version === 'string' ? body.version : null;
}

/**
 * The sidebar's upgrade check (spec 2 §2): the version deployed now, asked at start and hourly,
 * so a page opened before a deploy can say that a newer version is out.
 */
export const useServedVersion = () =>
  useSWR<string | null>('version.json', servedVersion, {
    revalidateOnFocus: false,
    refreshInterval: 60 * 60 * 1000,
    shouldRetryOnError: false,
  });
