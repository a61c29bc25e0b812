/**
 * Default retrieval parameters, written into graph.json by the build (see types.ts). SPEC §5 and
 * GoS table 6 fix the restart probability and the reverse weights of dep, wf, sem and alt. The
 * rest are ours, chosen before any query set existed: BM25's usual k1 and b (and k3 = 8, a usual
 * query-term saturation, kept after the issue 21 dev sets showed k3 from 2 to ∞ within 0.01 MRR); field weights that
 * favour what names a skill over its body; all relation types weighted alike (λ); invokes
 * reversible at full weight, so a contract passes mass on to the other parents that call it
 * instead of keeping it; a seed set of 20 and a 5% graph-score floor so that a long tail of weak
 * neighbours is not padded into the results. The NO_SKILL_HIT threshold is a share of what the
 * library could match, so it holds for a two-word query and a 300-word task instruction alike
 * (issue 21 item 2). Feedback from the 5 best hits' 10 heaviest terms, at a fifth of a query
 * term's weight, and only for a query no skill covers almost whole: chosen on the issue 21 dev
 * sets (BENCHMARKS.md), where it lifted long task instructions most and left queries that quote a
 * skill's own description as they were.
 */
import type { RetrievalParameters } from './types.js';

export const DEFAULT_PARAMETERS: RetrievalParameters = {
  bm25: { k1: 1.2, b: 0.75, k3: 8, fieldWeights: { name: 3, description: 2, headings: 1.5, io: 1.5, templates: 1, body: 1 } },
  seeds: { eta: 0.3, count: 20, minRatio: 0.1 },
  ppr: {
    restart: 0.2,
    iterations: 50,
    tolerance: 1e-9,
    relationWeights: { invokes: 0.2, dep: 0.2, wf: 0.2, sem: 0.2, alt: 0.2 },
    reverseWeights: { invokes: 1.0, dep: 1.0, wf: 0.5, sem: 0.2, alt: 0.1 },
  },
  rerank: { mu: 0.5, minGraphRatio: 0.05 },
  minCoverage: 0.2,
  feedback: { docs: 5, terms: 10, weight: 0.2, maxCoverage: 0.95 },
};
