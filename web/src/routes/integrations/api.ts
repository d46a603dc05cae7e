// The integrations screen's calls (spec 4 §7 "Facebook and tokens"), one function each. Answer
// types are schema's (schema/connections-api.ts), the ones the worker answers with.
import type {
  ConnectionStatusAnswer,
  FacebookStatusAnswer,
  FbTokenAnswer,
  PlatformTokenAnswer,
  TaboolaAnswer,
  TestConversionAnswer,
} from '../../../../schema/connections-api';
import { api } from '../../api/client';
import { useApi } from '../../api/hooks';

export const FB_TOKEN_KEY = 'auth/get-fb-token';
export const tokenKey = (platform: 'tiktok' | 'mediago') => `auth/get-${platform}-token`;
export const TABOOLA_KEY = 'auth/get-taboola';

const quiet = { revalidateOnFocus: false };

export const useFacebookStatus = () => useApi<FacebookStatusAnswer>('facebook/status', quiet);
export const useFbToken = () => useApi<FbTokenAnswer>(FB_TOKEN_KEY, quiet);
export const usePlatformToken = (platform: 'tiktok' | 'mediago') =>
  useApi<PlatformTokenAnswer>(tokenKey(platform), quiet);
export const useTaboola = () => useApi<TaboolaAnswer>(TABOOLA_KEY, quiet);

/** A fresh login dialog URL: each status answer carries a new single-use state (docs/decisions/123). */
export const facebookAuthUrl = async () => (await api.get<FacebookStatusAnswer>('facebook/status')).auth_url;
/** The code and the state the login dialog sent back; the server checks the state before the code. */
export const setFbToken = (code: string, state: string) =>
  api.post<ConnectionStatusAnswer>('auth/set-fb-token', { code, state });
export const resetFbToken = () => api.post<ConnectionStatusAnswer>('auth/reset-fb-token');
export const testConversion = (body: { dataset_id: string; test_event_code: string; event_name?: string }) =>
  api.post<TestConversionAnswer>('facebook/test-conversion', body);
export const setPlatformToken = (platform: 'tiktok' | 'mediago', apiToken: string) =>
  api.post<ConnectionStatusAnswer>(`auth/set-${platform}-token`, { api_token: apiToken });
export const setTaboola = (body: { client_id: string; client_secret: string }) =>
  api.post<ConnectionStatusAnswer>('auth/set-taboola', body);
