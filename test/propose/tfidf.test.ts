import { describe, expect, it } from 'vitest';
import { buildTfidf, buildTfidfFromCounts, isTermCounts, termCounts, tfidfWeight } from '../../src/propose/tfidf.js';
import { contentTokens } from '../../src/text/tokens.js';

describe('termCounts', () => {
  it('counts each content term once, in the order it first occurs, with the token total', () => {
    const c = termCounts('Install pandas, then install numpy; pandas again. The end');
    expect(c.terms).toEqual(['instal', 'panda', 'numpi', 'end']);
    expect(c.counts).toEqual([2, 2, 1, 1]);
    expect(c.length).toBe(contentTokens('Install pandas, then install numpy; pandas again. The end').length - 1 + 1);
  });

  it('accepts what it makes and refuses other shapes read back from a cache', () => {
    expect(isTermCounts(termCounts('a pdf to a csv table, and a csv'))).toBe(true);
    for (const bad of [null, 1, {}, { terms: ['a'], counts: [1] }, { terms: ['a'], counts: [0], length: 0 }, { terms: ['a'], counts: [1, 2], length: 3 }, { terms: [1], counts: [1], length: 1 }, { terms: ['a'], counts: [1.5], length: 1.5 }, { terms: ['a'], counts: [2], length: 3 },
      // Terms must be distinct stems of letters: a tab or newline would be written into the query index.
      { terms: ['pdf', 'pdf'], counts: [1, 1], length: 2 },
      { terms: ['pdf\tcsv'], counts: [1], length: 1 },
      { terms: ['pdf\n'], counts: [1], length: 1 },
      { terms: ['x2'], counts: [1], length: 1 },
    ]) {
      expect(isTermCounts(bad)).toBe(false);
    }
  });
});

describe('buildTfidfFromCounts', () => {
  it('gives the vectors buildTfidf gives from the texts, term ids by first occurrence', () => {
    const texts = ['merge pdf files into one pdf', 'split a pdf into pages', 'convert csv to xlsx', '', 'pdf pdf pdf csv'];
    const a = buildTfidf(texts);
    const b = buildTfidfFromCounts(texts.map(termCounts));
    expect(b).toEqual(a);
    expect(a.vocabulary.slice(0, 3)).toEqual(['merg', 'pdf', 'file']);
    // The weight of a term is (1 + ln tf)·ln((1 + n)/(1 + df)), normalised: pdf occurs 3 times in the last text, in 3 of 5.
    const last = a.vectors[4]!;
    const pdf = a.vocabulary.indexOf('pdf');
    const csv = a.vocabulary.indexOf('csv');
    const w = [tfidfWeight(3, 3, 5), tfidfWeight(1, 2, 5)];
    const norm = Math.hypot(...w);
    expect([...last.terms]).toEqual([pdf, csv].sort((x, y) => x - y));
    expect(last.weights[[...last.terms].indexOf(pdf)]).toBeCloseTo(w[0]! / norm, 12);
  });
});
