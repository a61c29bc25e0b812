/**
 * sem: lexical neighbours (SPEC §5). Each parent points to its `NEIGHBOURS` most similar parents
 * whose TF-IDF cosine is at least `MIN_COSINE` (a k-nearest-neighbour graph, so the edge's
 * direction says whose neighbour list it came from). Candidates come from an inverted index over
 * each vector's top terms, skipping terms in more than a tenth of the library or in more than
 * `MAX_POSTINGS` parents, whichever is fewer; cosine is then exact. The fixed cap keeps the work per
 * parent bounded, so the rule's cost grows with the library, not with its square (a tenth of a
 * 4,000-skill library is 400 candidates per term); a term that common says little about which
 * five parents are nearest.
 */
import { topTerms, type SparseVector } from '../../propose/tfidf.js';
import type { GraphEdge } from '../types.js';
import type { EdgeRule } from './edge-rule.js';
import { roundTo } from '../../util/round.js';

export const NEIGHBOURS = 5;
export const MIN_COSINE = 0.3;
const TOP_TERMS = 24;
export const MAX_POSTINGS = 256;

export const semRule: EdgeRule = {
  type: 'sem',
  describe: `the target is one of the source's ${NEIGHBOURS} nearest parents by TF-IDF cosine, at least ${MIN_COSINE}`,
  build(ctx) {
    const n = ctx.vectors.length;
    const maxDf = Math.max(2, Math.min(MAX_POSTINGS, Math.floor(n / 10)));
    const tops = ctx.vectors.map((v) => topTerms(v, TOP_TERMS));
    const index = new Map<number, number[]>();
    tops.forEach((terms, i) => {
      for (const t of terms) {
        let list = index.get(t);
        if (!list) index.set(t, (list = []));
        list.push(i);
      }
    });
    // Parent i's vector spread over the vocabulary, so a cosine with a candidate is one pass over
    // the candidate's terms. The products and their order (ascending term id, as cosine() adds
    // them) are the same, so the sums are the same to the bit. Candidacy is symmetric (i and j
    // share a top term), and so is the sum, so each pair is measured once, from its lower index.
    let vocabulary = 0;
    for (const v of ctx.vectors) if (v.terms.length > 0) vocabulary = Math.max(vocabulary, v.terms[v.terms.length - 1]! + 1);
    const dense = new Float64Array(vocabulary);
    const denseCosine = (b: SparseVector): number => {
      let dot = 0;
      for (let k = 0; k < b.terms.length; k++) {
        const a = dense[b.terms[k]!]!;
        if (a !== 0) dot += a * b.weights[k]!;
      }
      return dot;
    };
    const close: { j: number; sim: number }[][] = Array.from({ length: n }, () => []);
    for (let i = 0; i < n; i++) {
      const seen = new Set<number>();
      for (const t of tops[i]!) {
        const list = index.get(t)!;
        if (list.length > maxDf) continue;
        for (const j of list) if (j > i) seen.add(j);
      }
      const vi = ctx.vectors[i]!;
      for (let k = 0; k < vi.terms.length; k++) dense[vi.terms[k]!] = vi.weights[k]!;
      for (const j of seen) {
        const sim = denseCosine(ctx.vectors[j]!);
        if (sim < MIN_COSINE) continue;
        close[i]!.push({ j, sim });
        close[j]!.push({ j: i, sim });
      }
      for (let k = 0; k < vi.terms.length; k++) dense[vi.terms[k]!] = 0;
    }
    const edges: GraphEdge[] = [];
    for (let i = 0; i < n; i++) {
      const near = close[i]!.sort((a, b) => b.sim - a.sim || (ctx.parentIds[a.j]! < ctx.parentIds[b.j]! ? -1 : 1)).slice(0, NEIGHBOURS);
      for (const { j, sim } of near) {
        edges.push({ from: ctx.parentIds[i]!, to: ctx.parentIds[j]!, type: 'sem', weight: roundTo(sim, 4), evidence: [{ kind: 'cosine', detail: `TF-IDF cosine ${roundTo(sim, 4)}` }] });
      }
    }
    return edges;
  },
};
