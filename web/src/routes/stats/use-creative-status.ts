// The creative switch of the target rows (spec 3 §4; docs/decisions/093, 094). The statuses of the
// page's targets are asked for once the rows are there; a switch runs the spec's flow: no line
// items, a single deleted one, two or more (the line-item modal) or a confirmation, and the
// switch shows the wanted state only while that runs, so cancel or failure leaves it as it was.
import { useMemo, useState } from 'react';
import useSWR from 'swr';
import {
  ALERT_LINE_ITEM_STATUSES,
  CREATIVE_MESSAGES as CM,
  type CreativeStatus,
  type CreativeStatusesAnswer,
  type LineItemLink,
} from '../../../../schema/creative-status-api';
import { CPC_TRAFFIC_SOURCES } from '../../../../schema/traffic';
import { TRAFFIC_MESSAGES as TM } from '../../../../schema/traffic-api';
import type { TargetRecord } from '../../api/endpoints';
import { useConfirm } from '../../components/confirm-dialog';
import { notify } from '../../components/toaster';
import { saveBannersActive } from '../basic-info/traffic-api';
import { creativeStatuses, setJeengAdStatus, toggleStatsAd } from './creative-api';
import { toastFailure } from './use-statistics';

type Variant = 'liveintent' | 'external' | 'blaze';

function variantOf(source: string | undefined): Variant | null {
  if (source === 'liveintent' || source === 'blaze') return source;
  return (CPC_TRAFFIC_SOURCES as readonly string[]).includes(source ?? '') ? 'external' : null;
}

/** Pink rows: a paused or deleted line item, or a removed creative (spec 3 §4, §9). */
export const isAlertRow = (s: CreativeStatus | undefined) =>
  Boolean(
    s && (!s.CREATIVEID_exist || (ALERT_LINE_ITEM_STATUSES as readonly string[]).includes(s.LINEITEM_status)),
  );

export function useCreativeStatus(
  campaign: { campaignId: number; trafficSource: string } | undefined,
  rows: readonly TargetRecord[],
) {
  const confirm = useConfirm();
  const variant = variantOf(campaign?.trafficSource);
  const campaignId = campaign?.campaignId ?? 0;
  const targets = useMemo(
    () => [...new Set(rows.map((r) => String(r.target ?? '')).filter(Boolean))].slice(0, 200),
    [rows],
  );
  const key = variant && campaignId && targets.length ? ['creative-statuses', campaignId, ...targets] : null;
  const { data, mutate } = useSWR<CreativeStatusesAnswer>(key, () => creativeStatuses(campaignId, targets), {
    revalidateOnFocus: false,
    keepPreviousData: true,
    shouldRetryOnError: false,
  });
  const byTarget = useMemo(() => new Map((data?.creatives ?? []).map((c) => [c.target, c])), [data]);
  const [pending, setPending] = useState<Record<string, boolean>>({});
  const [modalTarget, setModalTarget] = useState<string | null>(null);
  const [busyLineItems, setBusyLineItems] = useState<ReadonlySet<string>>(new Set());

  const replace = (creative: CreativeStatus) =>
    mutate(
      (d) => d && { ...d, creatives: d.creatives.map((c) => (c.target === creative.target ? creative : c)) },
      { revalidate: false },
    );
  const settle = (target: string) =>
    setPending((p) => {
      const { [target]: _, ...rest } = p;
      return rest;
    });

  const linkLineItem = async (s: CreativeStatus, item: LineItemLink, next: boolean) => {
    const res = await toggleStatsAd({
      campaignId,
      adRefId: s.creative_id,
      liRefId: item.refId,
      status: next,
    });
    await replace({ ...res.creative, target: s.target });
    notify.success(res.message);
  };

  const toggle = async (row: TargetRecord, next: boolean) => {
    const target = String(row.target);
    const s = byTarget.get(target);
    if (!s || pending[target] !== undefined) return;
    if (variant === 'liveintent') {
      const items = s.lineitem_statuses;
      if (items.length === 0) {
        notify.info(CM.noLineItems);
        return;
      }
      if (items.length >= 2) {
        setModalTarget(target);
        return;
      }
      if (items[0].status === 'deleted') {
        notify.error(CM.lineItemDeleted);
        return;
      }
    }
    if (variant === 'blaze' && !s.BANNER) return;
    setPending((p) => ({ ...p, [target]: next }));
    try {
      const what = variant === 'blaze' ? 'banner' : 'creative';
      const where = variant === 'blaze' ? 'at Blaze' : 'in its line item';
      const ok = await confirm({
        title: 'Are you sure?',
        message: next
          ? `Activate ${what} ${target}? It runs again ${where}.`
          : `Deactivate ${what} ${target}? It stops running ${where}.`,
        confirmLabel: next ? 'Yes, activate it' : 'Yes, deactivate it',
        cancelLabel: 'Cancel',
        danger: !next,
      });
      if (!ok) return;
      if (variant === 'liveintent') await linkLineItem(s, s.lineitem_statuses[0], next);
      else if (variant === 'blaze') {
        await saveBannersActive(campaignId, [Number(s.BANNER)], next ? 1 : 0);
        await replace({ ...s, creative_status: next });
        notify.success(TM.bannersUpdated);
      } else {
        const res = await setJeengAdStatus(campaignId, target, next);
        await replace({ ...res.creative, target });
        notify.success(res.message);
      }
    } catch (err) {
      if (variant === 'blaze') notify.error(TM.updateBannerFailed);
      else toastFailure(err);
    } finally {
      settle(target);
    }
  };

  /** A line item's switch in the modal: links or unlinks at once (the modal is the choice). */
  const toggleLineItem = async (item: LineItemLink, next: boolean) => {
    const s = modalTarget ? byTarget.get(modalTarget) : undefined;
    if (!s || busyLineItems.has(item.refId)) return;
    setBusyLineItems((b) => new Set(b).add(item.refId));
    try {
      await linkLineItem(s, item, next);
    } catch (err) {
      toastFailure(err);
    } finally {
      setBusyLineItems((b) => {
        const rest = new Set(b);
        rest.delete(item.refId);
        return rest;
      });
    }
  };

  return {
    /** The column shows once the platform answered for this campaign. */
    enabled: Boolean(variant && data?.available),
    /** What the pink rows mean, for the card's description, or ''. */
    legend:
      !variant || !data?.available
        ? ''
        : variant === 'liveintent'
          ? "Per ad target (creative). Pink rows: the creative's line item is paused or deleted, or the creative was removed."
          : variant === 'blaze'
            ? 'Per ad target (the Blaze banner). Tick banners to set them Active or Inactive at once.'
            : 'Per ad target (the provider’s ad). Pink rows: the provider removed the ad.',
    /** Why there is no switch (not connected, no provider campaign yet), or ''. */
    unavailable: variant && data && !data.available ? data.message : '',
    statusOf: (target: string) => byTarget.get(target),
    pending,
    toggle,
    modal: modalTarget ? (byTarget.get(modalTarget) ?? null) : null,
    closeModal: () => setModalTarget(null),
    toggleLineItem,
    busyLineItems,
    /** Blaze campaigns: the rows' banners can be switched together (banner-bulk.tsx). */
    blaze: variant === 'blaze' && Boolean(data?.available),
    campaignId,
    /** Reads the statuses again (after a bulk banner update). */
    reread: () => void mutate(),
  };
}

export type CreativeSwitches = ReturnType<typeof useCreativeStatus>;
