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
import { SpreadVector, topTerms, type SparseVector } from '../../propose/tfidf.js';
import type { GraphEdge } from '../types.js';
import type { EdgeRule, Neighbour } from './edge-rule.js';
import { roundTo } from '../../util/round.js';

export const NEIGHBOURS = 5;
export const MIN_COSINE = 0.3;
const TOP_TERMS = 24;
export const MAX_POSTINGS = 256;

export const semRule: EdgeRule = {
  type: 'sem',
  describe: `the target is one of the source's ${NEIGHBOURS} nearest parents by TF-IDF cosine, at least ${MIN_COSINE}`,
  build(ctx) {
    const nearest = ctx.nearest ?? nearestParents(ctx.vectors, ctx.parentIds);
    const edges: GraphEdge[] = [];
    nearest.forEach((near, i) => {
      for (const { j, sim } of near) {
        edges.push({ from: ctx.parentIds[i]!, to: ctx.parentIds[j]!, type: 'sem', weight: roundTo(sim, 4), evidence: [{ kind: 'cosine', detail: `TF-IDF cosine ${roundTo(sim, 4)}` }] });
      }
    });
    return edges;
  },
};

/**
 * Per parent, its NEIGHBOURS nearest parents with cosine at least MIN_COSINE, nearest first (ties
 * by node id). A function of the vectors and ids alone, so that a build may compute it in a worker
 * thread while its passes run (emit/text-facts.ts).
 */
export function nearestParents(vectors: readonly SparseVector[], parentIds: readonly string[]): Neighbour[][] {
  const n = vectors.length;
  const maxDf = Math.max(2, Math.min(MAX_POSTINGS, Math.floor(n / 10)));
  const tops = vectors.map((v) => topTerms(v, TOP_TERMS));
  const index = new Map<number, number[]>();
  tops.forEach((terms, i) => {
    for (const t of terms) {
      let list = index.get(t);
      if (!list) index.set(t, (list = []));
      list.push(i);
    }
  });
  // Candidacy is symmetric (i and j share a top term), and so is the cosine, so each pair is
  // measured once, from its lower index, with i's vector spread over the vocabulary.
  const spread = new SpreadVector();
  const close: Neighbour[][] = Array.from({ length: n }, () => []);
  for (let i = 0; i < n; i++) {
    const seen = new Set<number>();
    for (const t of tops[i]!) {
      const list = index.get(t)!;
      if (list.length > maxDf) continue;
      for (const j of list) if (j > i) seen.add(j);
    }
    if (seen.size === 0) continue;
    spread.load(vectors[i]!);
    for (const j of seen) {
      const sim = spread.cosine(vectors[j]!);
      if (sim < MIN_COSINE) continue;
      close[i]!.push({ j, sim });
      close[j]!.push({ j: i, sim });
    }
  }
  return close.map((near) => near.sort((a, b) => b.sim - a.sim || (parentIds[a.j]! < parentIds[b.j]! ? -1 : 1)).slice(0, NEIGHBOURS));
}
