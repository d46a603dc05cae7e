// The status switches of the statistics tables (spec 3 §5): a landing page, offer or path turned
// on or off from its row, the row showing the server's answer, the switch busy meanwhile.
import { type RefObject, useState } from 'react';
import { STATS_MESSAGES } from '../../../../schema/stats-api';
import {
  type LandingRecord,
  type OfferRecord,
  type PathRecord,
  updateLandingStatus,
  updateOfferStatus,
  updatePathStatus,
} from '../../api/endpoints';
import { notify } from '../../components/toaster';
import { toastFailure, type useStatistics } from './use-statistics';

type Statistics = ReturnType<typeof useStatistics>;

/** The rows with the matching one's status replaced by the server's. */
const withActive = <R extends { active: number }>(rows: R[], match: (row: R) => boolean, active: number) =>
  rows.map((r) => (match(r) ? { ...r, active } : r));

/**
 * `switchedAt` is set to when the last switch succeeded: the server answers a repeat of a request
 * from its stored job for 30 s, so tables asked for soon after must be asked afresh.
 * `onLandingSwitched` runs after a landing page changed, for what follows its status (the elements).
 */
export function useStatusSwitches(
  stats: Statistics,
  switchedAt: RefObject<number>,
  onLandingSwitched: () => void,
) {
  const [switching, setSwitching] = useState<Set<string>>(new Set());

  const withSwitch = async (key: string, task: () => Promise<void>) => {
    setSwitching((s) => new Set(s).add(key));
    try {
      await task();
      switchedAt.current = Date.now();
    } finally {
      setSwitching((s) => {
        const next = new Set(s);
        next.delete(key);
        return next;
      });
    }
  };
  const idsOf = (prefix: string) =>
    new Set([...switching].filter((k) => k.startsWith(prefix)).map((k) => Number(k.slice(prefix.length))));

  const toggleLanding = (row: LandingRecord, active: boolean) =>
    withSwitch(`l${row.page_id}`, async () => {
      try {
        const res = await updateLandingStatus(row.page_id, active ? 1 : 0);
        stats.setLanding((l) => ({
          ...l,
          rows: withActive(l.rows, (r) => r.page_id === row.page_id, res.active),
        }));
        notify.success(res.message || STATS_MESSAGES.landingStatusUpdated);
        onLandingSwitched();
      } catch {
        // The switch keeps the stored value (it never moved on its own).
        notify.error(STATS_MESSAGES.landingStatusNotUpdated);
      }
    });
  // An offer or path switched: its row in the answer takes the server's status.
  const switchPlacement = (
    key: string,
    update: () => Promise<{ active: number }>,
    store: (active: number) => void,
    done: string,
  ) =>
    withSwitch(key, async () => {
      try {
        const res = await update();
        store(res.active);
        notify.success(done);
      } catch (err) {
        toastFailure(err);
      }
    });
  const toggleOffer = (row: OfferRecord, active: boolean) =>
    switchPlacement(
      `o${row.offer_id}`,
      () => updateOfferStatus(row.offer_id, active ? 1 : 0),
      (on) =>
        stats.setAnswer((a) =>
          a?.offer
            ? {
                ...a,
                offer: {
                  ...a.offer,
                  offerRecords: withActive(a.offer.offerRecords, (r) => r.offer_id === row.offer_id, on),
                },
              }
            : a,
        ),
      'Offer page status updated.',
    );
  const togglePath = (row: PathRecord, active: boolean) =>
    switchPlacement(
      `p${row.path_id}`,
      () => updatePathStatus(row.path_id, active ? 1 : 0),
      (on) =>
        stats.setAnswer((a) =>
          a?.path
            ? {
                ...a,
                path: {
                  ...a.path,
                  pathRecords: withActive(a.path.pathRecords, (r) => r.path_id === row.path_id, on),
                },
              }
            : a,
        ),
      'Path status updated.',
    );

  return { idsOf, toggleLanding, toggleOffer, togglePath };
}
