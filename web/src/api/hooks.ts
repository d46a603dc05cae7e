// swr hooks over the typed client: screens read data through these, never through fetch.
import useSWR, { type SWRConfiguration } from 'swr';
import { KEYS, readKey } from '../lib/storage';
import { api } from './client';
import { paths } from './endpoints';
import type { CurrentUserAnswer, LicenseInfo, LogoInfo, UsersAnswer } from './types';

type Key = string | readonly [string, ...unknown[]];

/** The default fetcher: the key is the API path, or [path, ...parts that only split the cache]. */
export const swrFetcher = <T>(key: Key) => api.get<T>(typeof key === 'string' ? key : key[0]);

export function useApi<T>(key: Key | null, config?: SWRConfiguration<T>) {
  return useSWR<T>(key, swrFetcher, config);
}

const STATIC = { revalidateOnFocus: false, revalidateIfStale: false, dedupingInterval: 60_000 };

export const useLogo = () => useApi<LogoInfo>(paths.logo, STATIC);

export const useTimezones = () => useApi<string[]>(paths.timezones, STATIC);

export const useLicense = () => useApi<LicenseInfo>(paths.license, { revalidateOnFocus: false });

/** The signed-in user; asks only when a token is stored. */
export function useCurrentUser() {
  const token = readKey(KEYS.token);
  // The token is part of the key so that another sign-in never shows the previous user.
  return useApi<CurrentUserAnswer>(token ? [paths.currentUser, token] : null, { revalidateOnFocus: false });
}

export const useUsers = (enabled: boolean) => useApi<UsersAnswer>(enabled ? paths.users : null);
