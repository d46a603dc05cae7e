import { api } from './api';

async function created(path: string, token: string, body: Record<string, unknown>, idField: string) {
  const res = await api(path, { token, body });
  if (res.status !== 201) throw new Error(`${path} failed: ${res.status} ${JSON.stringify(res.body)}`);
  const data = res.body.data;
  const item = data.campaign?.campaignData ?? data.landing ?? data.offer ?? data.path ?? data.option;
  return item[idField] as number;
}

/** A campaign through POST /api/add-campaign; answers its id. */
export function makeCampaign(token: string, body: Record<string, unknown> = {}) {
  return created('/api/add-campaign', token, { name: 'Test campaign', ...body }, 'campaignId');
}
export function makeLanding(token: string, campaignId: number, body: Record<string, unknown> = {}) {
  return created(
    '/api/add-landing',
    token,
    { campaignId, name: 'Landing', url: 'https://lp.example/page', ...body },
    'landingPageId',
  );
}
export function makeOffer(token: string, campaignId: number, body: Record<string, unknown> = {}) {
  return created(
    '/api/add-offer',
    token,
    { campaignId, name: 'Offer', url: 'https://offer.example/buy', payout: '10', ...body },
    'offerPageId',
  );
}
export function makePath(token: string, campaignId: number, body: Record<string, unknown> = {}) {
  return created('/api/add-path', token, { campaignId, name: 'Path', ...body }, 'pathId');
}
export function makeOption(token: string, campaignId: number, body: Record<string, unknown> = {}) {
  return created('/api/add-option', token, { campaignId, name: 'Option', ...body }, 'optionId');
}

/** A campaign folder through POST /api/add-campaign-folder; answers its id. */
export async function makeFolder(token: string, name: string, body: Record<string, unknown> = {}) {
  const res = await api('/api/add-campaign-folder', { token, body: { name, ...body } });
  if (res.status !== 201) throw new Error(`folder failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.folder.campaignId as number;
}
