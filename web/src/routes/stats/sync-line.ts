import type { PlatformSyncStatus } from '../../../../schema/integrations-api';
import { formatDateTime, formatInteger } from '../../lib/format';

const LABELS: Record<PlatformSyncStatus['platform'], string> = {
  facebook: 'Facebook',
  tiktok: 'TikTok',
  taboola: 'Taboola',
  mediago: 'MediaGo',
  liveintent: 'LiveIntent',
};

/** One line about a platform's cost import: when it last ran, what it brought, or why it failed. */
export function syncLine(link: PlatformSyncStatus): string {
  const name = LABELS[link.platform] ?? link.platform;
  if (!link.lastSyncAt) return `${name} cost import: waiting for its first sync.`;
  const when = formatDateTime(link.lastSyncAt);
  if (link.lastError) return `${name} cost import failed at ${when}: ${link.lastError}`;
  const range = link.syncedFrom ? ` for ${link.syncedFrom} to ${link.syncedTo}` : '';
  return `${name} cost import: last synced ${when}, ${formatInteger(link.rowsImported)} rows${range}.`;
}
