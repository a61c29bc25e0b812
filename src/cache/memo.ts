/**
 * A memo table kept in the build cache: values of a pure function by a key of their input (for
 * token counts: the SHA-256 of the text). The table is one cache entry per namespace; a build
 * reads it once, and writes back only the entries it used, so it holds what the last build needed
 * and never grows past that. Two builds writing it at once leave one of their tables, both right.
 * The values are the function's, whatever is in the table: a key names its input exactly, and the
 * code fingerprint in the entry's key keeps tables of other code apart.
 */
import type { CacheStore } from './store.js';
import { cacheKeyOf } from './keys.js';
import { decodeValue, encodeValue } from './codec.js';

export class MemoTable<V> {
  private readonly used = new Map<string, V>();

  private constructor(
    private readonly store: CacheStore | undefined,
    private readonly entryKey: string,
    private readonly known: ReadonlyMap<string, V>,
    private readonly accept: (v: unknown) => v is V,
  ) {}

  /** The table of `namespace` as the last build left it (empty without a cache or an entry). */
  static load<V>(store: CacheStore | undefined, namespace: string, accept: (v: unknown) => v is V): MemoTable<V> {
    const entryKey = cacheKeyOf('memo', { namespace });
    let known = new Map<string, V>();
    const payload = store?.get('memo', entryKey);
    if (payload) {
      const value = decodeValue(payload);
      if (value instanceof Map) known = value as Map<string, V>;
    }
    return new MemoTable(store, entryKey, known, accept);
  }

  /** How many values the last build left. */
  get keptCount(): number {
    return this.known.size;
  }

  /** The last build's value for `key` if it has the right shape and `fits` takes it. */
  private kept(key: string, fits: (v: V) => boolean): V | undefined {
    const old = this.known.get(key);
    return old !== undefined && this.accept(old) && fits(old) ? old : undefined;
  }

  /** Whether `through(key, …, fits)` would answer without computing. */
  has(key: string, fits: (v: V) => boolean = () => true): boolean {
    return this.used.has(key) || this.kept(key, fits) !== undefined;
  }

  /**
   * The value this build has for `key`, or the last build's if it has the right shape and fits
   * (it is then kept for the next build too). `fits` checks a kept value against what the caller
   * knows of it (the cluster it names, say): one that does not fit is not given out.
   */
  get(key: string, fits: (v: V) => boolean = () => true): V | undefined {
    if (this.used.has(key)) return this.used.get(key);
    const v = this.kept(key, fits);
    if (v !== undefined) this.used.set(key, v);
    return v;
  }

  /** The value for `key` (see get), computed by `compute` unless the table has it. */
  through(key: string, compute: () => V, fits: (v: V) => boolean = () => true): V {
    const v = this.get(key, fits);
    if (v !== undefined) return v;
    const computed = compute();
    this.used.set(key, computed);
    return computed;
  }

  /** Keeps a value the caller computed, for the next build. */
  put(key: string, value: V): void {
    this.used.set(key, value);
  }

  save(): void {
    if (!this.store) return;
    const sorted = new Map([...this.used].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
    this.store.put('memo', this.entryKey, encodeValue(sorted));
  }
}
