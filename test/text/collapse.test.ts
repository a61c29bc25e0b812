import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/calibrate/random.js';
import { collapse } from '../../src/text/collapse.js';

describe('collapse', () => {
  it('is replace(/\\s+/g, " ").trim(), with or without its fast path, on generated texts of every whitespace', () => {
    const pool = ['a', 'b', '.', ' ', '  ', '\t', '\n', '\r\n', '\v', '\f', '\u00a0', '\u2028', '\u3000', '\ufeff', '\u200b', 'é', '中'];
    const r = seededRng(7);
    for (let n = 0; n < 20_000; n++) {
      const text = Array.from({ length: Math.floor(r() * 12) }, () => pool[Math.floor(r() * pool.length)]).join('');
      expect(collapse(text), JSON.stringify(text)).toBe(text.replace(/\s+/g, ' ').trim());
    }
    expect(collapse('  one  two\tthree \n')).toBe('one two three');
    expect(collapse('one two')).toBe('one two');
  });
});
