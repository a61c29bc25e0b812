import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/calibrate/random.js';
import { buildTfidf, buildTfidfFromCounts, indexTermCounts, isTermCounts, termCounts, tfidfWeight, topTerms, type SparseVector } from '../../src/propose/tfidf.js';
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
    expect(isTermCounts(indexTermCounts('deploy n8n on k8s and ec2'))).toBe(true);
    for (const bad of [null, 1, {}, { terms: ['a'], counts: [1] }, { terms: ['a'], counts: [0], length: 0 }, { terms: ['a'], counts: [1, 2], length: 3 }, { terms: [1], counts: [1], length: 1 }, { terms: ['a'], counts: [1.5], length: 1.5 }, { terms: ['a'], counts: [2], length: 3 },
      // Terms must be distinct stems of lower-case letters and digits: a tab or newline would be written into the query index.
      { terms: ['pdf', 'pdf'], counts: [1, 1], length: 2 },
      { terms: ['pdf\tcsv'], counts: [1], length: 1 },
      { terms: ['pdf\n'], counts: [1], length: 1 },
      { terms: ['X2'], counts: [1], length: 1 },
      { terms: ['x-2'], counts: [1], length: 1 },
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

/** The implementations these functions replaced (a sort of every entry), kept as the reference their results must equal. */
function referenceTfidf(docs: readonly { terms: readonly string[]; counts: readonly number[] }[]) {
  const termIds = new Map<string, number>();
  const df: number[] = [];
  const ids = docs.map((doc) =>
    doc.terms.map((tok) => {
      let id = termIds.get(tok);
      if (id === undefined) {
        id = termIds.size;
        termIds.set(tok, id);
        df.push(0);
      }
      df[id]!++;
      return id;
    }),
  );
  const n = docs.length;
  return docs.map((doc, d) => {
    const order = ids[d]!.map((_, k) => k).sort((a, b) => ids[d]![a]! - ids[d]![b]!);
    const weights = new Float64Array(order.length);
    let norm = 0;
    order.forEach((k, i) => {
      const w = tfidfWeight(doc.counts[k]!, df[ids[d]![k]!]!, n);
      weights[i] = w;
      norm += w * w;
    });
    norm = Math.sqrt(norm) || 1;
    for (let i = 0; i < weights.length; i++) weights[i]! /= norm;
    return { terms: Uint32Array.from(order, (k) => ids[d]![k]!), weights };
  });
}

function referenceTopTerms(v: SparseVector, k: number): number[] {
  const idx = [...v.terms.keys()].sort((p, q) => v.weights[q]! - v.weights[p]! || v.terms[p]! - v.terms[q]!);
  return idx.slice(0, k).map((i) => v.terms[i]!);
}

describe('buildTfidfFromCounts and topTerms against the sorts they replaced', () => {
  it('give the same vectors, to the bit, and the same top terms on generated libraries', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const r = seededRng(seed);
      const vocab = 1 + Math.floor(r() * 60);
      const docs = Array.from({ length: Math.floor(r() * 40) }, () => {
        const words = Array.from({ length: Math.floor(r() * 30) }, () => `w${String.fromCharCode(97 + Math.floor(r() * vocab) % 26)}${'x'.repeat(Math.floor(r() * vocab / 26))}`);
        return termCounts(words.join(' '));
      });
      // Repeated terms and uneven counts, as no termCounts makes but a caller might pass.
      if (seed % 5 === 0 && docs.length > 0) docs[0] = { terms: ['alpha', 'beta', 'alpha'], counts: [2, 1, 3], length: 6 };
      const got = buildTfidfFromCounts(docs).vectors;
      const want = referenceTfidf(docs);
      expect(got.length).toBe(want.length);
      got.forEach((v, i) => {
        expect([...v.terms]).toEqual([...want[i]!.terms]);
        expect([...v.weights]).toEqual([...want[i]!.weights]);
        for (const k of [0, 1, 3, 24, 1000, -1, -3, 2.5, Number.NaN, Infinity, -Infinity]) expect(topTerms(v, k)).toEqual(referenceTopTerms(v, k));
      });
    }
  });

  it('orders equal weights by term id in the top terms', () => {
    const v = { terms: Uint32Array.from([2, 5, 7, 9, 11]), weights: Float64Array.from([0.5, 0.9, 0.5, 0.9, 0]) };
    expect(topTerms(v, 3)).toEqual([5, 9, 2]);
    expect(topTerms(v, 5)).toEqual([5, 9, 2, 7, 11]);
    expect(topTerms(v, 0)).toEqual([]);
  });
});
