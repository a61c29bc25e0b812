import { describe, expect, it } from 'vitest';
import { CacheStore } from '../../src/cache/store.js';
import { MemoTable } from '../../src/cache/memo.js';
import { scratchDir } from '../helpers/tmp.js';

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

describe('memo tables in the cache', () => {
  it('computes a value once per build, serves it to the next build, and keeps only what was used', () => {
    const store = new CacheStore(scratchDir('memo'));
    let calls = 0;
    const compute = (n: number) => () => (calls++, n);
    const first = MemoTable.load(store, 'counts', isCount);
    expect(first.through('a', compute(1))).toBe(1);
    expect(first.through('a', compute(99))).toBe(1);
    expect(first.through('b', compute(2))).toBe(2);
    first.save();
    expect(calls).toBe(2);

    const second = MemoTable.load(store, 'counts', isCount);
    expect(second.through('a', compute(99))).toBe(1);
    second.save();
    expect(calls).toBe(2);

    // 'b' was not used by the second build: the third computes it again.
    const third = MemoTable.load(store, 'counts', isCount);
    expect(third.through('b', compute(2))).toBe(2);
    expect(calls).toBe(3);
  });

  it('recomputes a value the table holds with the wrong type, and works without a cache', () => {
    const store = new CacheStore(scratchDir('memo-bad'));
    const t = MemoTable.load<unknown>(store, 'counts', (v): v is unknown => true);
    t.through('a', () => 'not a count');
    t.save();
    expect(MemoTable.load(store, 'counts', isCount).through('a', () => 7)).toBe(7);
    expect(MemoTable.load(undefined, 'counts', isCount).through('a', () => 8)).toBe(8);
  });
});
