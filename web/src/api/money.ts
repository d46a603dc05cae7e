// The funding calls (docs/api.md "Funding and balances", "Rotators"): one function per call and
// the swr hooks over them. Answer types come from schema/money-api.ts.
import { useSyncExternalStore } from 'react';
import useSWR, { mutate } from 'swr';
import type {
  BalanceAnswer,
  BalanceUsersAnswer,
  FundRotatorAnswer,
  ReportDataAnswer,
  ReportPeriodsAnswer,
  RotatorOffersAnswer,
  RotatorsAnswer,
  UpdateBalanceAnswer,
} from '../../../schema/money-api';
import { api } from './client';

const BALANCE = 'get-balance';

/** POST /api/get-balance: one's own wallets, or (admin and coach) the named user's. */
const getBalance = (userId: number | null, page = 1, perPage = 10) =>
  api.post<BalanceAnswer>(BALANCE, { ...(userId ? { userId } : {}), page, perPage });

export function useBalance(userId: number | null, page = 1, perPage = 10) {
  return useSWR<BalanceAnswer>(
    [BALANCE, userId ?? 'me', page, perPage],
    () => getBalance(userId, page, perPage),
    {
      keepPreviousData: true,
    },
  );
}

/** Every screen and the header showing wallets reload after a change. */
export const reloadBalances = () => mutate((key) => Array.isArray(key) && key[0] === BALANCE);

export const updateBalance = (body: Record<string, unknown>) =>
  api.post<UpdateBalanceAnswer>('update-balance', body);

export const useBalanceUsers = (enabled: boolean) =>
  useSWR<BalanceUsersAnswer>(
    enabled ? 'balance-users' : null,
    () => api.get<BalanceUsersAnswer>('balance-users'),
    {
      revalidateOnFocus: false,
    },
  );

export const useRotators = (enabled: boolean) =>
  useSWR<RotatorsAnswer>(enabled ? 'rotators' : null, () =>
    api.get<RotatorsAnswer>('rotators', { query: { campaignType: 'rotator' } }),
  );

export const useRotatorOffers = (campaignId: number | null) =>
  useSWR<RotatorOffersAnswer>(campaignId ? ['rotator-offers', campaignId] : null, () =>
    api.get<RotatorOffersAnswer>(`rotators/${campaignId}/offers`),
  );

export const fundRotator = (campaignId: number, body: Record<string, unknown>) =>
  api.post<FundRotatorAnswer>(`rotators/${campaignId}/fund`, body);

export const reportPeriods = (offer: string, email: string) =>
  api.get<ReportPeriodsAnswer>(`rotators/reports/${encodeURIComponent(offer)}`, { query: { email } });

export const reportData = (offer: string, query: Record<string, string>) =>
  api.get<ReportDataAnswer>(`rotators/reports/${encodeURIComponent(offer)}/data`, { query });

// The student whose wallets an admin or coach is looking at, shared by the funding screen and
// the header dashboard for the browser session (a student always sees its own).
const STORE_KEY = 'balance-user-id';
let selectedUser: number | null = Number(sessionStorage.getItem(STORE_KEY)) || null;
const listeners = new Set<() => void>();

export function selectBalanceUser(id: number | null): void {
  selectedUser = id;
  if (id) sessionStorage.setItem(STORE_KEY, String(id));
  else sessionStorage.removeItem(STORE_KEY);
  for (const listener of listeners) listener();
}

export function useSelectedBalanceUser(): number | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => selectedUser,
  );
}
