// The click's two-level cache (docs/decisions/100). Level 1 is a map in the isolate, level 2 the
// Cache API of the data centre (caches.default), shared by its isolates. A copy that exists at
// either level is answered at once; it is checked in the background (waitUntil) on the first
// request at least CHECK_MS after its last check, by reading the version from D1 (the primary,
// so that a replica's lag does not hide a change), and replaced when the version moved. Only a
// key with no copy at all waits, for one D1 read. A failed check keeps the copy it has.

/** A copy is checked against D1 at most this often per isolate (the bound in decision 100). */
export const CHECK_MS = 1_000;

const L2_ORIGIN = 'https://routing-cache.edge-tracker.internal';
/** The shared copy outlives a quiet hour; its version is checked when it is taken. */
const L2_MAX_AGE_S = 3_600;

export type Versioned<T> = { version: string; value: T };

export type SwrSource<T> = {
  /** The full read: the value and its version, one D1 statement where possible. */
  load: (key: number, where: 'nearest' | 'primary') => Promise<Versioned<T>>;
  /** The version only (cheap); null to re-load instead (then the version is compared after). */
  version: ((key: number) => Promise<string>) | null;
};

/** waitUntil where a request runs; tests and jobs without one let the promise run on. */
export type Background = { waitUntil(promise: Promise<unknown>): void } | undefined;

type Entry<T> = { value: T; version: string; checkedAt: number; checking: boolean };

function sharedCache(): Cache | null {
  return typeof caches === 'undefined' ? null : (caches as unknown as { default: Cache }).default;
}

export class SwrCache<T> {
  private readonly entries = new Map<number, Entry<T>>();
  private readonly cold = new Map<number, Promise<T>>();
  /** Keys this isolate changed itself: their next read skips the shared copy and reads D1. */
  private readonly changed = new Set<number>();

  constructor(
    private readonly name: string,
    private readonly maxEntries: number,
  ) {}

  /** The copy in this isolate, whatever its age; undefined when there is none. */
  peek(key: number, source: SwrSource<T>, bg: Background, now = Date.now()): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now - entry.checkedAt >= CHECK_MS && !entry.checking) {
      entry.checking = true;
      const check = this.check(key, entry, source, now);
      bg?.waitUntil(check);
    }
    return entry.value;
  }

  /** The copy at once when one exists (see peek), else the shared copy, else one D1 read. */
  get(key: number, source: SwrSource<T>, bg: Background, now = Date.now()): T | Promise<T> {
    const hit = this.peek(key, source, bg, now);
    if (hit !== undefined) return hit;
    let pending = this.cold.get(key);
    if (!pending) {
      pending = this.coldRead(key, source, bg).finally(() => this.cold.delete(key));
      this.cold.set(key, pending);
    }
    return pending;
  }

  /** After a change made in this isolate: its next read goes to D1 and refreshes the shared copy. */
  invalidate(key?: number): void {
    if (key === undefined) {
      for (const k of this.entries.keys()) this.changed.add(k);
      this.entries.clear();
    } else {
      this.entries.delete(key);
      this.changed.add(key);
    }
  }

  /**
   * For tests: this isolate's copies as a new isolate would find them (none, or aged by `ms`);
   * `shared` also removes the data centre's latest copies.
   */
  async simulate(action: { forget: true; shared?: boolean } | { ageMs: number }): Promise<void> {
    if ('ageMs' in action) {
      for (const entry of this.entries.values()) entry.checkedAt -= action.ageMs;
      return;
    }
    const keys = [...this.entries.keys()];
    this.entries.clear();
    this.changed.clear();
    const cache = sharedCache();
    if (action.shared && cache) await Promise.all(keys.map((k) => cache.delete(this.url(k))));
  }

  private async coldRead(key: number, source: SwrSource<T>, bg: Background): Promise<T> {
    if (!this.changed.delete(key)) {
      const shared = await this.readShared(key);
      if (shared) {
        // Checked on its first use here unless another isolate checked it a moment ago.
        this.store(key, shared.value, shared.version, shared.checkedAt);
        this.peek(key, source, bg);
        return shared.value;
      }
    }
    const fresh = await source.load(key, 'nearest');
    this.store(key, fresh.value, fresh.version, Date.now());
    bg?.waitUntil(this.writeShared(key, fresh, Date.now()));
    return fresh.value;
  }

  private async check(key: number, entry: Entry<T>, source: SwrSource<T>, now: number): Promise<void> {
    try {
      const version = source.version ? await source.version(key) : null;
      const fresh =
        version === null
          ? await source.load(key, 'primary')
          : version === entry.version
            ? null
            : await this.loadVersion(key, version, source);
      if (!fresh || fresh.version === entry.version) {
        entry.checkedAt = now;
        return;
      }
      if (this.entries.get(key) === entry) this.store(key, fresh.value, fresh.version, now);
      await this.writeShared(key, fresh, now);
    } catch (err) {
      // D1 unreachable: keep answering from the copy; the next check is one interval later.
      entry.checkedAt = now;
      console.error(`routing cache: checking ${this.name} ${key} failed`, err);
    } finally {
      entry.checking = false;
    }
  }

  /** A version another isolate of this data centre may already have read. */
  private async loadVersion(key: number, version: string, source: SwrSource<T>): Promise<Versioned<T>> {
    const cache = sharedCache();
    const hit = cache ? await cache.match(this.url(key, version)).catch(() => undefined) : undefined;
    if (hit) return { version, value: (await hit.json()) as T };
    return source.load(key, 'primary');
  }

  private store(key: number, value: T, version: string, checkedAt: number) {
    if (!this.entries.has(key) && this.entries.size >= this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as number);
    }
    this.entries.set(key, { value, version, checkedAt, checking: false });
  }

  private url(key: number, version?: string) {
    return `${L2_ORIGIN}/${this.name}/${key}${version === undefined ? '' : `/v/${encodeURIComponent(version)}`}`;
  }

  private async readShared(key: number): Promise<(Versioned<T> & { checkedAt: number }) | null> {
    const cache = sharedCache();
    if (!cache) return null;
    try {
      const hit = await cache.match(this.url(key));
      return hit ? ((await hit.json()) as Versioned<T> & { checkedAt: number }) : null;
    } catch {
      return null;
    }
  }

  /** The latest copy under the key, and under key + version for isolates that see the version move. */
  private async writeShared(key: number, fresh: Versioned<T>, checkedAt: number): Promise<void> {
    const cache = sharedCache();
    if (!cache) return;
    const headers = { 'content-type': 'application/json', 'cache-control': `max-age=${L2_MAX_AGE_S}` };
    try {
      await Promise.all([
        cache.put(this.url(key), new Response(JSON.stringify({ ...fresh, checkedAt }), { headers })),
        cache.put(this.url(key, fresh.version), new Response(JSON.stringify(fresh.value), { headers })),
      ]);
    } catch (err) {
      console.error(`routing cache: storing ${this.name} ${key} failed`, err);
    }
  }
}

/**
 * A D1 handle that reads from the nearest replica where the platform offers D1 sessions
 * (a cold read), or from the primary (a version check must not miss a change to replica lag).
 */
export function readHandle(db: D1Database, where: 'nearest' | 'primary'): D1Database | D1DatabaseSession {
  const session = (db as Partial<D1Database>).withSession;
  if (typeof session !== 'function') return db;
  return session.call(db, where === 'nearest' ? 'first-unconstrained' : 'first-primary');
}
