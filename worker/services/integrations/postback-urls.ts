import { AFFILIATE_NETWORK_PARAMS, AFFILIATE_NETWORKS } from '../../../schema/campaigns';
import {
  NETWORK_LABELS,
  NETWORK_MACROS,
  type PostbackUrlRow,
  type PostbackVideo,
} from '../../../schema/connections-api';
import type { Env } from '../../env';
import { PUBLIC_PREFIX } from '../../lib/r2';
import { trackingOrigin } from '../campaigns/links';
import { getSettings } from '../settings/settings';

// The postback-URLs screen (spec 4 §2, §7): the installation's postback and pixel URLs with each
// affiliate network's click-id macro in place, so the marketer pastes them into the network as
// they are. Routes and domain are the settings' (docs/tracking.md), like every campaign link.

/**
 * Setup videos are files the operator puts in R2 (public/videos/postback-<network>.<ext>, with
 * an optional `title` in the object's custom metadata): the product ships none of its own and
 * links to no outside host (docs/decisions/076).
 */
const VIDEO_PREFIX = `${PUBLIC_PREFIX}videos/postback-`;

const route = (value: string) => value.replace(/^\/+|\/+$/g, '');

async function videos(env: Env): Promise<Map<string, PostbackVideo>> {
  const found = new Map<string, PostbackVideo>();
  const listing = await env.BUCKET.list({
    prefix: VIDEO_PREFIX,
    include: ['customMetadata'],
  } as R2ListOptions);
  for (const object of listing.objects) {
    const name = object.key.slice(VIDEO_PREFIX.length);
    const network = name.replace(/\.[a-z0-9]+$/i, '');
    if (!(network in AFFILIATE_NETWORK_PARAMS) || found.has(network)) continue;
    found.set(network, {
      title:
        object.customMetadata?.title ||
        `Set up the postback in ${NETWORK_LABELS[network as keyof typeof NETWORK_LABELS]}`,
      url: `/files/${object.key}`,
      type: 'file',
      id: network,
    });
  }
  return found;
}

export async function postbackUrls(env: Env, requestOrigin: string): Promise<PostbackUrlRow[]> {
  const settings = await getSettings(env);
  const origin = trackingOrigin(settings, requestOrigin);
  const postback = `${origin}/${route(settings.route_postback)}`;
  const image = `${origin}/${route(settings.route_image)}`;
  const found = await videos(env);
  return AFFILIATE_NETWORKS.map((network) => {
    const macro = NETWORK_MACROS[network];
    return {
      network,
      label: NETWORK_LABELS[network],
      param: AFFILIATE_NETWORK_PARAMS[network],
      macro,
      // No payout macro: without one the conversion takes the offer's payout (docs/tracking.md).
      postback_url: `${postback}?clickid=${macro}`,
      pixel_url: `${image}?clickid=${macro}`,
      video: found.get(network) ?? null,
    };
  });
}
