// A preference kept in localStorage, one of a fixed list of choices: every component using it
// hears a change at once (in this tab through the listeners, in others through `storage`).
import { useSyncExternalStore } from 'react';

export function storedChoice<T extends string | number>(
  key: string,
  choices: readonly T[],
  fallback: T,
  parse: (raw: string | null) => unknown = (raw) => raw,
) {
  const listeners = new Set<() => void>();
  const read = (): T => {
    try {
      const value = parse(window.localStorage.getItem(key));
      return choices.includes(value as T) ? (value as T) : fallback;
    } catch {
      return fallback;
    }
  };
  const set = (value: T) => {
    try {
      window.localStorage.setItem(key, String(value));
    } catch {
      // Storage blocked: the choice still holds for this page view through the listeners.
    }
    for (const l of listeners) l();
  };
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    const onStorage = (e: StorageEvent) => {
      if (e.key === key) listener();
    };
    window.addEventListener('storage', onStorage);
    return () => {
      listeners.delete(listener);
      window.removeEventListener('storage', onStorage);
    };
  };
  const use = () => useSyncExternalStore(subscribe, read, () => fallback);
  return { read, set, use };
}
