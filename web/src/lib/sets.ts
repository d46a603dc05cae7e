/**
 * A copy of `set` with `items` put in (`on` true) or taken out (false); without `on`, each item
 * flips. For a state setter: `setSelected((s) => withToggled(s, [id], on))`.
 */
export function withToggled<T>(set: ReadonlySet<T>, items: Iterable<T>, on?: boolean): Set<T> {
  const next = new Set(set);
  for (const item of items) {
    if (on ?? !next.has(item)) next.add(item);
    else next.delete(item);
  }
  return next;
}
