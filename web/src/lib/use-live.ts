import { useCallback, useEffect, useRef, useState } from 'react';

// Live statistics (issue 27, docs/decisions/134-live-statistics.md): while the switch is on and
// the tab is visible, `tick` runs every LIVE_INTERVAL_MS, never more often; a hidden tab pauses
// it, and coming back runs it at once if the interval has passed. The choice is remembered.

export const LIVE_INTERVAL_MS = 10_000;

export function useLiveSetting(storageKey: string): [boolean, (on: boolean) => void] {
  const [live, setState] = useState(() => {
    try {
      return window.localStorage.getItem(storageKey) === '1';
    } catch {
      return false;
    }
  });
  const setLive = useCallback(
    (on: boolean) => {
      setState(on);
      try {
        window.localStorage.setItem(storageKey, on ? '1' : '0');
      } catch {
        // Storage blocked: the choice lasts for this page view.
      }
    },
    [storageKey],
  );
  return [live, setLive];
}

export function useLiveTick(live: boolean, tick: () => void, interval = LIVE_INTERVAL_MS) {
  const latest = useRef(tick);
  latest.current = tick;
  useEffect(() => {
    if (!live) return;
    let last = Date.now();
    const run = () => {
      if (document.visibilityState !== 'visible' || Date.now() - last < interval) return;
      last = Date.now();
      latest.current();
    };
    const timer = window.setInterval(run, Math.min(interval, 1000));
    document.addEventListener('visibilitychange', run);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', run);
    };
  }, [live, interval]);
}
