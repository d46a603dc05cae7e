// The Tools screen's calls (docs/api.md "Tools"): one function per call; answer types come from
// schema/tools-api.ts.
import type {
  ClearTestConversionsAnswer,
  LinkBuilderAnswer,
  LinkTestAnswer,
  TestClickAnswer,
  TestConversionsAnswer,
  TestPostbackAnswer,
  TrafficSourcesAnswer,
} from '../../../../schema/tools-api';
import { api } from '../../api/client';
import { useApi } from '../../api/hooks';

export const TOOLS_PATHS = {
  trafficSources: 'tools/traffic-sources',
  testConversions: 'tools/test-conversions',
} as const;

export type LinkTestBody = {
  link: string;
  campaignId: number | null;
  device: string;
  country: string;
  userAgent: string;
  target: string;
  keyword: string;
  tokens: Record<string, string>;
  runs: number;
  checkPages: 0 | 1;
};

export const runLinkTest = (body: LinkTestBody) => api.post<LinkTestAnswer>('tools/link-test', body);

export const makeTestClick = (body: {
  campaignId: number | null;
  device: string;
  country: string;
  target: string;
}) => api.post<TestClickAnswer>('tools/test-clicks', body);

export const sendTestPostback = (body: {
  clickId: string;
  payout: string;
  txid: string;
  event: string;
  send: 0 | 1;
}) => api.post<TestPostbackAnswer>('tools/test-postback', body);

export const clearTestConversions = () => api.delete<ClearTestConversionsAnswer>(TOOLS_PATHS.testConversions);

export const buildLink = (body: {
  campaignId: number;
  trafficSource: string;
  params: { name: string; value: string }[];
}) => api.post<LinkBuilderAnswer>('tools/link-builder', body);

export const useTrafficSources = () =>
  useApi<TrafficSourcesAnswer>(TOOLS_PATHS.trafficSources, {
    revalidateOnFocus: false,
    revalidateIfStale: false,
  });

export const useTestConversions = () =>
  useApi<TestConversionsAnswer>(TOOLS_PATHS.testConversions, { revalidateOnFocus: false });

/** "name=value" lines (the token values box) as an object; blank lines are skipped. */
export function parseTokenLines(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed) continue;
    const eq = trimmed.indexOf('=');
    const name = (eq < 0 ? trimmed : trimmed.slice(0, eq)).trim();
    if (name) out[name] = eq < 0 ? '' : trimmed.slice(eq + 1).trim();
  }
  return out;
}
