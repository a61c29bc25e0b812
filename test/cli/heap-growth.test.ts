import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, heapGrowingPercent } from '../../src/cli/heap-growth.js';

describe('heapGrowingPercent', () => {
  it('is 50 unless SKILLC_HEAP_GROWING_PERCENT gives a whole number (0: V8 chooses)', () => {
    expect(HEAP_GROWING_PERCENT).toBe(50);
    expect(heapGrowingPercent({})).toBe(50);
    expect(heapGrowingPercent({ SKILLC_HEAP_GROWING_PERCENT: '100' })).toBe(100);
    expect(heapGrowingPercent({ SKILLC_HEAP_GROWING_PERCENT: ' 0 ' })).toBe(0);
    // Anything else is not handed to V8's flag parser.
    for (const bad of ['', '-5', '1.5', '50 --expose-gc', '99999', 'lots']) expect(heapGrowingPercent({ SKILLC_HEAP_GROWING_PERCENT: bad }), bad).toBe(50);
  });
});
