/**
 * Retrieval as a library (for `skillc query` and, later, an MCP server): `openRetriever(dist)`
 * loads dist/graph.json once; each `query()` ranks, hydrates under the budget and returns plain
 * data that the formatters in render.ts turn into markdown or JSON.
 */
import { TOOL_NAME, TOOL_VERSION } from '../version.js';
import { loadGraphIndex, type GraphIndex } from './graph-index.js';
import { hydrate, tokenBound, type HydratedHit } from './hydrate.js';
import { loadSharedSections } from './shared-sections.js';
import { rank, type Ranking } from './rank.js';
import { preamble } from './render.js';

export const DEFAULT_K = 8;
export const DEFAULT_BUDGET = 8000;
/** Below this a single bundle header hardly fits. */
export const MIN_BUDGET = 200;

export interface QueryOptions {
  readonly k?: number;
  readonly budget?: number;
}

export interface QueryResult {
  readonly tool: { readonly name: string; readonly version: string };
  readonly query: string;
  readonly status: 'ok' | 'NO_SKILL_HIT';
  /** Why nothing was returned (with NO_SKILL_HIT). */
  readonly reason?: string;
  readonly k: number;
  readonly tokens: { readonly budget: number; readonly charged: number; readonly tokenizer: string };
  /** Query terms after stemming and stop-word removal. */
  readonly terms: readonly string[];
  readonly coverage: number;
  readonly hits: readonly HydratedHit[];
}

export interface Retriever {
  readonly index: GraphIndex;
  /** Ranking only: no files read, no budget (benchmarks, tools that hydrate themselves). */
  rank(query: string, k?: number): Ranking;
  query(query: string, options?: QueryOptions): Promise<QueryResult>;
}

export function openRetriever(dist: string): Retriever {
  const index = loadGraphIndex(dist);
  const shared = loadSharedSections(dist);
  return {
    index,
    rank: (query, k = DEFAULT_K) => rank(index, query, k),
    async query(query, options = {}) {
      const k = options.k ?? DEFAULT_K;
      const budget = options.budget ?? DEFAULT_BUDGET;
      if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, not ${k}`);
      if (!Number.isInteger(budget) || budget < MIN_BUDGET) throw new RangeError(`the budget must be an integer of at least ${MIN_BUDGET} tokens, not ${budget}`);
      const ranking = rank(index, query, k);
      const base = { tool: { name: TOOL_NAME, version: TOOL_VERSION }, query, k, terms: ranking.terms, coverage: ranking.coverage };
      if (ranking.hits.length === 0) {
        const reason =
          ranking.terms.length === 0
            ? 'the query has no content words'
            : ranking.coverage === 0
              ? 'no skill contains any of the query terms'
              : `the best match covers ${pct(ranking.coverage)} of the query terms' weight; at least ${pct(index.doc.parameters.minCoverage)} is needed`;
        return { ...base, status: 'NO_SKILL_HIT', reason, tokens: { budget, charged: 0, tokenizer: index.doc.tokenizer }, hits: [] };
      }
      // The preamble is charged at its longest: every figure at the widest it can be (hits ≤ k, and
      // at least 2 so that "hits" is plural), the query quoted at its bounded length (render.ts).
      const reserve = tokenBound(preamble(query, Math.max(k, 2), budget, budget));
      const hits = await hydrate(index.dist, ranking.hits, budget - reserve, shared);
      const charged = reserve + hits.reduce((a, h) => a + h.cost, 0);
      return { ...base, status: 'ok', tokens: { budget, charged, tokenizer: index.doc.tokenizer }, hits };
    },
  };
}

function pct(x: number): string {
  return `${Math.round(x * 100)}%`;
}
