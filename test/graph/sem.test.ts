import { describe, expect, it } from 'vitest';
import { MAX_POSTINGS, semRule } from '../../src/graph/edges/sem.js';
import type { GraphContext } from '../../src/graph/edges/edge-rule.js';
import type { SparseVector } from '../../src/propose/tfidf.js';

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
