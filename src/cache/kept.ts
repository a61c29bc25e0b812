/**
 * Values kept in the build cache one entry each, by a key of their input: the entry's key is that
 * key under the namespace and skillc's code fingerprint (keys.ts), its payload the value in V8's
 * serialisation (codec.ts). A value read back is given out only if `accept` takes it; anything
 * else (absent, refused by the store, of another shape) is a miss.
 */
import type { CacheStore } from './store.js';
import { cacheKeyOf } from './keys.js';
import { decodeValue, encodeValue } from './codec.js';

export interface KeptValues<V> {
  get(key: string): V | undefined;
  put(key: string, value: V): void;
}

export function keptValues<V>(cache: CacheStore, namespace: string, accept: (v: unknown) => v is V): KeptValues<V> {
  return {
    get(key) {
      const payload = cache.get(namespace, cacheKeyOf(namespace, key));
      const value = payload === undefined ? undefined : decodeValue(payload);
      return accept(value) ? value : undefined;
    },
    put(key, value) {
      cache.put(namespace, cacheKeyOf(namespace, key), encodeValue(value));
    },
  };
}
