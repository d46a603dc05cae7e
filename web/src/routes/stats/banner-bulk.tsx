// Blaze campaigns: the target rows' banners set Active or Inactive together from the statistics
// screen (spec 3 §5, §7, §8, §9; docs/decisions/170): ticked rows go to api/blaze/save-banner 5
// ids a call, the statuses are read again 3 s after, and the toasts are the spec's.
import { Check, Pause } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { TRAFFIC_MESSAGES as TM } from '../../../../schema/traffic-api';
import type { TargetRecord } from '../../api/endpoints';
import { Button } from '../../components/button';
import type { Column } from '../../components/data-table/data-table';
import { notify } from '../../components/toaster';
import { saveBannersActive } from '../basic-info/traffic-api';
import type { CreativeSwitches } from './use-creative-status';

/** Spec 3 §9: the statuses are read again 3 seconds after a bulk update. */
const REFRESH_MS = 3000;

export function useBannerBulk(cs: CreativeSwitches | undefined, rows: readonly TargetRecord[]) {
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState<0 | 1 | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const on = Boolean(cs?.blaze);
  const bannerOf = (r: TargetRecord) => (on ? (cs?.statusOf(String(r.target))?.BANNER ?? '') : '');
  // Only the banners of the rows shown count: a new page or search drops the others.
  const shown = new Set(rows.map(bannerOf).filter(Boolean));
  const selected = [...ticked].filter((b) => shown.has(b));

  const tick = (banner: string, yes: boolean) =>
    setTicked((t) => {
      const next = new Set(t);
      if (yes) next.add(banner);
      else next.delete(banner);
      return next;
    });

  const run = async (active: 0 | 1) => {
    // Spec 3 §5: bulk banner updates only run when there are targets.
    if (!cs || rows.length === 0 || selected.length === 0 || busy !== null) return;
    setBusy(active);
    try {
      await saveBannersActive(cs.campaignId, selected.map(Number), active);
      notify.success(TM.bannersUpdated);
      setTicked(new Set());
    } catch {
      notify.error(TM.updateBannerFailed);
    } finally {
      setBusy(null);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => cs.reread(), REFRESH_MS);
    }
  };

  const column: Column<TargetRecord> = {
    key: 'BANNER',
    label: 'Banner',
    sortable: false,
    className: 'actions',
    render: (r) => {
      const s = cs?.statusOf(String(r.target));
      if (!s?.BANNER) return <span className="cell-muted">—</span>;
      return (
        <label className="banner-pick">
          <input
            type="checkbox"
            checked={ticked.has(s.BANNER)}
            onChange={(e) => tick(s.BANNER ?? '', e.target.checked)}
            aria-label={`Select banner ${s.target}`}
            data-testid={`banner-pick-${s.target}`}
          />
          {s.banner_url ? <img src={s.banner_url} alt="" className="banner-thumb" /> : null}
        </label>
      );
    },
  };

  const actions = [
    { active: 1 as const, verb: 'Activate', icon: Check, testId: 'banner-activate' },
    { active: 0 as const, verb: 'Deactivate', icon: Pause, testId: 'banner-deactivate' },
  ];
  const toolbar = on ? (
    <span className="banner-bulk" data-testid="banner-bulk">
      {actions.map(({ active, verb, icon: Icon, testId }) => (
        <Button
          key={testId}
          size="sm"
          variant="secondary"
          icon={<Icon size={14} aria-hidden />}
          disabled={selected.length === 0}
          busy={busy === active}
          onClick={() => void run(active)}
          data-testid={testId}
        >
          {verb} {selected.length || ''} banners
        </Button>
      ))}
    </span>
  ) : null;

  return { on, column, toolbar };
}
