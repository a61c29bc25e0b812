import { describe, expect, it } from 'vitest';
import { MAX_POSTINGS, semRule } from '../../src/graph/edges/sem.js';
import type { GraphContext } from '../../src/graph/edges/edge-rule.js';
import { cosine, topTerms, type SparseVector } from '../../src/propose/tfidf.js';
import { roundTo } from '../../src/util/round.js';

/** A unit vector over the given term ids, equal weights. */
function vector(terms: number[]): SparseVector {
  const sorted = [...terms].sort((a, b) => a - b);
  const w = 1 / Math.sqrt(sorted.length);
  return { terms: Uint32Array.from(sorted), weights: Float64Array.from(sorted.map(() => w)) };
}

function context(vectors: SparseVector[]): GraphContext {
  return { parents: [], parentIds: vectors.map((_, i) => `skill:p${String(i).padStart(5, '0')}`), io: [], artifacts: {} as GraphContext['artifacts'], vectors, contracts: [], contractId: (id) => id, callSites: [] };
}

describe('sem edges', () => {
  it('links parents through a term they share, but not through one in more than MAX_POSTINGS parents, however large the library', () => {
    const n = 4000; // a tenth is 400, above the cap
    const common = MAX_POSTINGS + 44; // parents 0..common-1 share term 1, and nothing else with each other
    const vectors = Array.from({ length: n }, (_, i) => vector([...(i < common ? [1] : []), 1000 + i]));
    // Parents 3998 and 3999 share a rare term, 2.
    vectors[3998] = vector([2, 1000 + 3998]);
    vectors[3999] = vector([2, 1000 + 3999]);
    const edges = semRule.build(context(vectors));
    expect(edges.map((e) => `${e.from}->${e.to}`).sort()).toEqual(['skill:p03998->skill:p03999', 'skill:p03999->skill:p03998']);
  });

  it('in a small library, a term in a tenth of it or fewer still links', () => {
    const vectors = Array.from({ length: 40 }, (_, i) => vector([...(i < 4 ? [1] : []), 1000 + i]));
    expect(semRule.build(context(vectors))).toHaveLength(12);
  });
});

describe('sem edges against a brute-force reference', () => {
  /** Each parent's nearest by cosine() over every other parent that shares a top term: the rule as first written. */
  function reference(vectors: SparseVector[]): string[] {
    const ids = context(vectors).parentIds;
    const tops = vectors.map((v) => topTerms(v, 24));
    const holders = (t: number) => tops.filter((top) => top.includes(t)).length;
    const maxDf = Math.max(2, Math.min(MAX_POSTINGS, Math.floor(vectors.length / 10)));
    const out: string[] = [];
    vectors.forEach((v, i) => {
      const near = vectors
        .map((w, j) => ({ j, sim: cosine(v, w) }))
        .filter((x) => x.j !== i && tops[x.j]!.some((t) => tops[i]!.includes(t) && holders(t) <= maxDf) && x.sim >= 0.3)
        .sort((a, b) => b.sim - a.sim || (ids[a.j]! < ids[b.j]! ? -1 : 1))
        .slice(0, 5);
      for (const { j, sim } of near) out.push(`${ids[i]} ${ids[j]} ${roundTo(sim, 4)}`);
    });
    return out;
  }

  it('finds the same neighbours with the same weights, measuring each pair once', () => {
    // Unequal weights over a small vocabulary, so that pairs share several terms and sums are long.
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const vectors = Array.from({ length: 200 }, () => {
      const terms = [...new Set(Array.from({ length: 12 }, () => Math.floor(random() * 150)))].sort((a, b) => a - b);
      const raw = terms.map(() => 0.1 + random());
      const norm = Math.sqrt(raw.reduce((a, x) => a + x * x, 0));
      return { terms: Uint32Array.from(terms), weights: Float64Array.from(raw.map((x) => x / norm)) };
    });
    const edges = semRule.build(context(vectors));
    const ref = reference(vectors);
    expect(ref.length).toBeGreaterThan(100);
    // Same pairs, in the same order per source (by the exact cosine), with the same rounded weight.
    expect(edges.map((e) => `${e.from} ${e.to} ${e.weight}`)).toEqual(ref);
  });
});
