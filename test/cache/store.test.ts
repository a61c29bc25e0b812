import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CacheStore, verifyEntry } from '../../src/cache/store.js';
import { cacheKeyOf, codeFingerprint } from '../../src/cache/keys.js';
import { decodeValue, encodeValue } from '../../src/cache/codec.js';
import { scratchDir } from '../helpers/tmp.js';

const KEY_A = cacheKeyOf('test', { a: 1 });
const KEY_B = cacheKeyOf('test', { a: 2 });
const entryFile = (dir: string, ns: string, key: string) => path.join(dir, ns, key.slice(0, 2), key);

describe('the cache store', () => {
  it('gives back what was put, under its namespace and key only', () => {
    const store = new CacheStore(scratchDir('store'));
    const payload = new TextEncoder().encode('hello');
    store.put('parse', KEY_A, payload);
    expect(Buffer.from(store.get('parse', KEY_A)!).toString()).toBe('hello');
    expect(store.get('parse', KEY_B)).toBeUndefined();
    expect(store.get('other', KEY_A)).toBeUndefined();
    expect(store.stats).toMatchObject({ hits: 1, misses: 2, writes: 1, rejected: 0 });
  });

  it('refuses a truncated entry, a flipped byte and an entry copied under another key (foreign)', () => {
    const dir = scratchDir('store-bad');
    const store = new CacheStore(dir);
    store.put('parse', KEY_A, new TextEncoder().encode('the payload of a'));
    const file = entryFile(dir, 'parse', KEY_A);
    const whole = fs.readFileSync(file);

    fs.writeFileSync(file, whole.subarray(0, whole.length - 3));
    expect(store.get('parse', KEY_A)).toBeUndefined();

    const flipped = Buffer.from(whole);
    flipped[flipped.length - 2] = flipped[flipped.length - 2]! ^ 0x20;
    fs.writeFileSync(file, flipped);
    expect(store.get('parse', KEY_A)).toBeUndefined();

    fs.mkdirSync(path.dirname(entryFile(dir, 'parse', KEY_B)), { recursive: true });
    fs.writeFileSync(entryFile(dir, 'parse', KEY_B), whole);
    expect(store.get('parse', KEY_B)).toBeUndefined();
    expect(store.stats.rejected).toBe(3);

    // Rebuilt: put again, read again.
    store.put('parse', KEY_A, new TextEncoder().encode('the payload of a'));
    expect(Buffer.from(store.get('parse', KEY_A)!).toString()).toBe('the payload of a');
  });

  it('treats a FIFO, a folder or garbage at an entry path as a miss, without hanging', () => {
    const dir = scratchDir('store-odd');
    const store = new CacheStore(dir);
    fs.mkdirSync(path.dirname(entryFile(dir, 'parse', KEY_A)), { recursive: true });
    expect(spawnSync('mkfifo', [entryFile(dir, 'parse', KEY_A)]).status).toBe(0);
    expect(store.get('parse', KEY_A)).toBeUndefined();
    fs.mkdirSync(entryFile(dir, 'parse', KEY_B), { recursive: true });
    expect(store.get('parse', KEY_B)).toBeUndefined();
    expect(verifyEntry(new TextEncoder().encode('skillc-cache 1\n{"namespace":'), 'parse', KEY_A)).toBeUndefined();
  });

  it('counts an entry it cannot write, and never throws', () => {
    const dir = scratchDir('store-ro');
    fs.writeFileSync(path.join(dir, 'parse'), 'a file where the namespace folder should be');
    const store = new CacheStore(dir);
    store.put('parse', KEY_A, new Uint8Array([1, 2, 3]));
    expect(store.stats.writeFailures).toBe(1);
    expect(store.stats.firstWriteError).toMatch(/EEXIST|ENOTDIR/);
  });

  it('keeps entries whole when processes write and read the same keys at once', () => {
    const dir = scratchDir('store-race');
    const script = `
      import { CacheStore } from ${JSON.stringify(path.resolve('build/src/cache/store.js'))};
      const store = new CacheStore(${JSON.stringify(dir)});
      const keys = ${JSON.stringify([KEY_A, KEY_B])};
      const payload = (k) => new TextEncoder().encode(k.repeat(2000));
      let bad = 0;
      for (let i = 0; i < 300; i++) {
        const k = keys[i % 2];
        store.put('parse', k, payload(k));
        const got = store.get('parse', k);
        if (got !== undefined && Buffer.from(got).toString() !== k.repeat(2000)) bad++;
      }
      process.stdout.write(String(bad + store.stats.rejected));
    `;
    const run = () => spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    // Two processes at once, each writing and reading both keys 150 times.
    const bg = spawnSync('sh', ['-c', `${JSON.stringify(process.execPath)} --input-type=module -e ${shellQuote(script)} & ${JSON.stringify(process.execPath)} --input-type=module -e ${shellQuote(script)}; wait`], { encoding: 'utf8' });
    expect(bg.status).toBe(0);
    expect(bg.stdout).toBe('00');
    expect(run().stdout).toBe('0');
    // No temporary file is left behind.
    const left = fs.readdirSync(path.join(dir, 'parse'), { recursive: true }).map(String).filter((f) => f.endsWith('.tmp'));
    expect(left).toEqual([]);
  });
});

describe('cache keys and values', () => {
  it('keys depend on the namespace, the inputs and the code', () => {
    expect(cacheKeyOf('a', { x: 1 })).not.toBe(cacheKeyOf('b', { x: 1 }));
    expect(cacheKeyOf('a', { x: 1, y: 2 })).toBe(cacheKeyOf('a', { y: 2, x: 1 }));
    expect(codeFingerprint()).toMatch(/^[0-9a-f]{64}$/);
  });

  it('stores values as worker threads pass them: dates, -0, Infinity and undefined survive', () => {
    const value = { d: new Date(0), z: -0, inf: Infinity, u: undefined, list: [1, 'two', null] };
    const back = decodeValue(encodeValue(value)) as typeof value;
    expect(back).toEqual(value);
    expect(Object.is(back.z, -0)).toBe(true);
    expect('u' in back).toBe(true);
    expect(decodeValue(new Uint8Array([1, 2, 3, 4]))).toBeUndefined();
  });
});

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
