import { useEffect, useRef, useState } from 'react';

/** The rendered width of an element, kept up to date as the layout changes. */
export function useWidth<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.getBoundingClientRect().width);
    const observer = new ResizeObserver((entries) => setWidth(entries[0]?.contentRect.width ?? 0));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

/**
 * Band-scale paddings that keep bars at most `maxBar` wide, so one day's bar stays a bar and not
 * a slab across the chart. The gap between bars grows, not the outer padding: xychart finds the
 * bar under the pointer from the inner steps only, so a wide outer padding would break tooltips.
 * `inner` is the plotting width.
 */
export function barPadding(count: number, inner: number, maxBar = 56, paddingOuter = 0.15) {
  if (count < 1 || inner <= maxBar) return { paddingInner: 0.3, paddingOuter };
  const needed = (inner - maxBar * (count + 2 * paddingOuter)) / (inner - maxBar);
  return { paddingInner: Math.min(0.98, Math.max(0.3, needed)), paddingOuter };
}
