/**
 * Retrieval as a library (for `skillc query` and the MCP server `skillc serve`): `openRetriever(dist)`
 * loads the dist's query index (dist/index/, built from graph.json) once; each `query()` ranks, hydrates under the budget and returns plain
 * data that the formatters in render.ts turn into markdown or JSON.
 */
import { TOOL_NAME, TOOL_VERSION } from '../version.js';
import { loadGraphIndex, type GraphIndex } from './graph-index.js';
import { hydrate, hydrateListing, readDistText, SEPARATOR, tokenBound, type HydratedHit } from './hydrate.js';
import { loadSharedSections, type SharedSections } from './shared-sections.js';
import { unreadWords } from '../text/tokens.js';
import { rank, type DenseScores, type RankedHit, type Ranking } from './rank.js';
import { overBudgetSteps, planOutline, preamble, wordList } from './render.js';
import { planFromRanking, planRanking, type PlanRanking, type PlanStep, type StepReason } from './plan.js';
import { loadTokenCounter } from '../text/bpe.js';
import { escapeInline } from '../text/terminal.js';

export const DEFAULT_K = 8;
const NONE_SHARED: SharedSections = new Map();
export const DEFAULT_BUDGET = 8000;
/** Below this a single bundle header hardly fits. */
export const MIN_BUDGET = 200;

export interface QueryOptions {
  readonly k?: number;
  readonly budget?: number;
  /** The task's cosines with the skills' dense vectors (`--embeddings`), mixed into the seeds. */
  readonly dense?: DenseScores;
  /** Fold other versions of a hit into it (`--fold-versions`, rank.ts VERSION_SEM). */
  readonly foldVersions?: boolean;
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
  /** Query terms no skill contains. */
  readonly unknownTerms: readonly string[];
  readonly coverage: number;
  readonly hits: readonly HydratedHit[];
  /** Ranked hits after the listed ones that the budget could not list even by file (absent when none). */
  readonly unlisted?: number;
}

/** One step of a plan: a hydrated hit (its rank is its step number) and why it comes where it does. */
export interface PlannedStep extends HydratedHit {
  readonly role: PlanStep['role'];
  readonly after: readonly StepReason[];
  readonly feeds: readonly StepReason[];
  /** The task's words the step serves, in the task's order (PlanStep.serves). */
  readonly serves: readonly string[];
  /** Contracts the skill's bundle invokes, by id. */
  readonly invokes: readonly string[];
}

/** A contract some step invokes, stated once for the whole plan. */
export interface PlannedContract {
  readonly id: string;
  /** Its readable text in the dist (contracts/<id>.md). */
  readonly file: string;
  /** The steps that invoke it. */
  readonly steps: readonly number[];
  /** `full`: its text is in the answer; `listed`: over the budget, named by file only. */
  readonly hydration: 'full' | 'listed';
  readonly text: string;
  readonly cost: number;
}

export interface PlanResult extends Omit<QueryResult, 'hits'> {
  readonly steps: readonly PlannedStep[];
  readonly contracts: readonly PlannedContract[];
}

export interface Retriever {
  readonly index: GraphIndex;
  /** Ranking only: no files read, no budget (benchmarks, tools that hydrate themselves). */
  rank(query: string, k?: number): Ranking;
  query(query: string, options?: QueryOptions): Promise<QueryResult>;
  /** The skills a multi-step task needs, in order (query/plan.ts); `k` is the most steps. */
  plan(query: string, options?: QueryOptions): Promise<PlanResult>;
  /** Releases the index's files (index.preload() reads everything and closes them too). */
  close(): void;
}

export function openRetriever(dist: string): Retriever {
  const index = loadGraphIndex(dist);
  // passages.json (3.4 MB on the corpora) is read the first time a hit has a shared section.
  let sharedSections: SharedSections | undefined;
  const shared = (hits: readonly RankedHit[]): SharedSections => (hits.some((h) => h.node.shared) ? (sharedSections ??= loadSharedSections(dist)) : NONE_SHARED);
  return {
    index,
    close: () => index.close(),
    rank: (query, k = DEFAULT_K) => rank(index, query, k),
    async query(query, options = {}) {
      const { k, budget } = checkedOptions(options);
      const ranking = rank(index, query, k, { ...(options.dense ? { dense: options.dense } : {}), foldVersions: options.foldVersions === true });
      const base = { tool: { name: TOOL_NAME, version: TOOL_VERSION }, query, k, terms: ranking.terms, unknownTerms: ranking.unknownTerms, coverage: ranking.coverage, feedback: ranking.feedback };
      if (ranking.hits.length === 0) {
        return { ...base, status: 'NO_SKILL_HIT', reason: noHitReason(index, ranking, query), tokens: { budget, charged: 0, tokenizer: index.tokenizer }, hits: [] };
      }
      // The preamble is charged at its longest: every figure at the widest it can be (hits ≤ k, and
      // at least 2 so that "hits" is plural), the query quoted at its bounded length (render.ts).
      // Counted exactly: its byte bound, with a note naming unknown words, could take more than a
      // small budget and leave no hit at all.
      const count = await loadTokenCounter();
      const reserve = count(preamble(query, Math.max(k, 2), budget, budget, 'query', ranking.unknownTerms, ranking.coverage));
      const { hits, unlisted, unlistedCost } = await hydrateListing(index.dist, ranking.hits, budget - reserve, shared(ranking.hits));
      const charged = reserve + hits.reduce((a, h) => a + h.cost, 0) + unlistedCost;
      return { ...base, status: 'ok', tokens: { budget, charged, tokenizer: index.tokenizer }, hits, ...(unlisted > 0 ? { unlisted } : {}) };
    },
    async plan(query, options = {}) {
      const { k, budget } = checkedOptions(options);
      const count = await loadTokenCounter();
      // What every plan answer holds whatever the bundles: the preamble at its longest, the outline
      // (every step's place and reason) and the line naming the steps over the budget. A budget too
      // small for that of k steps gets the plan of fewer steps.
      const fixedCost = (r: PlanRanking) =>
        count(preamble(query, Math.max(k, 2), budget, budget, 'plan', r.unknownTerms, r.coverage)) +
        count(planOutline(r.steps.map((s) => ({ node: s.hit.node, role: s.role, after: s.after, feeds: s.feeds, serves: s.serves })))) +
        count(SEPARATOR + overBudgetSteps(r.steps.map((_, i) => i + 1)));
      // One ranking; the plans of fewer steps choose from it (a step less each time, never below one).
      const ranked = planRanking(index, query, k, { foldVersions: options.foldVersions === true });
      let ranking = planFromRanking(index, query, ranked, k);
      for (let fewer = ranking.steps.length - 1; fewer >= 1 && fixedCost(ranking) > budget; fewer--) ranking = planFromRanking(index, query, ranked, fewer);
      const base = { tool: { name: TOOL_NAME, version: TOOL_VERSION }, query, k, terms: ranking.terms, unknownTerms: ranking.unknownTerms, coverage: ranking.coverage, feedback: ranking.feedback };
      if (ranking.steps.length === 0) {
        return { ...base, status: 'NO_SKILL_HIT', reason: noHitReason(index, ranking, query), tokens: { budget, charged: 0, tokenizer: index.tokenizer }, steps: [], contracts: [] };
      }
      // Charged first, whatever the bundles: the fixed part above, then each contract the steps
      // invoke, once, while it fits; the bundles share what is left, in step order, as `query`
      // hydrates its hits.
      let charged = fixedCost(ranking);
      const contracts: PlannedContract[] = [];
      for (const id of [...new Set(ranking.steps.flatMap((s) => s.hit.node.invokes))]) {
        const file = contractFile(index, id);
        const steps = ranking.steps.flatMap((s, i) => (s.hit.node.invokes.includes(id) ? [i + 1] : []));
        // The contract's readable text opens with its own `# id` heading.
        const text = readDistText(index.dist, file, 'contract', id).replace(/\s*$/, '\n');
        const cost = count(text) + tokenBound(SEPARATOR);
        const fits = charged + cost <= budget;
        contracts.push({ id, file, steps, hydration: fits ? 'full' : 'listed', text: fits ? text : '', cost: fits ? cost : 0 });
        if (fits) charged += cost;
      }
      // The separator after the outline (or the last contract) is charged with each bundle. The
      // budget goes to the best-matching steps first (a prerequisite the words did not name comes
      // last), and the answer shows them in plan order.
      const planned = ranking.steps;
      const priority = [...planned.keys()].sort((a, b) => Number(planned[a]!.role === 'prerequisite') - Number(planned[b]!.role === 'prerequisite') || planned[b]!.hit.score - planned[a]!.hit.score || a - b);
      const how = (i: number) => {
        const s = planned[i]!;
        if (s.role === 'match') return 'direct match';
        const f = s.feeds[0];
        return f ? `prerequisite: feeds step ${f.step} (${f.type}: ${escapeInline(f.detail)})` : 'prerequisite';
      };
      const hydrated = await hydrate(index.dist, planned.map((s) => s.hit), Math.max(0, budget - charged), shared(planned.map((s) => s.hit)), { order: priority, how, listing: 'outline' });
      const steps = hydrated.map((h): PlannedStep => {
        const { role, after, feeds, serves } = planned[h.rank - 1]!;
        return { ...h, role, after, feeds, serves, invokes: h.node.invokes };
      });
      charged += hydrated.reduce((a, h) => a + h.cost, 0);
      return { ...base, status: 'ok', tokens: { budget, charged, tokenizer: index.tokenizer }, steps, contracts };
    },
  };
}

function checkedOptions(options: QueryOptions): { k: number; budget: number } {
  const k = options.k ?? DEFAULT_K;
  const budget = options.budget ?? DEFAULT_BUDGET;
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, not ${k}`);
  if (!Number.isInteger(budget) || budget < MIN_BUDGET) throw new RangeError(`the budget must be an integer of at least ${MIN_BUDGET} tokens, not ${budget}`);
  return { k, budget };
}

/** contracts/<id>.md beside the contract's JSON, as the contract's node names it. */
function contractFile(index: GraphIndex, id: string): string {
  const i = index.nodeIndex.get(`contract:${id}`);
  const node = i === undefined ? undefined : index.node(i);
  const json = node?.kind === 'contract' ? node.contract : `contracts/${id}.json`;
  return json.replace(/\.json$/, '.md');
}

/** Why a ranking has no hits, in the order rank() tests it. */
export function noHitReason(index: GraphIndex, ranking: Ranking, query = ''): string {
  const P = index.parameters;
  const { terms, unknownTerms } = ranking;
  if (terms.length === 0) {
    const unread = unreadWords(query);
    return unread.length > 0 ? `the query has no words in Latin letters, the only ones the index reads; not read: ${wordList(unread)}` : 'the query has no content words';
  }
  if (unknownTerms.length === terms.length) return 'no skill contains any of the query terms';
  return `the best match covers ${pct(ranking.coverage)} of the weight of the query terms the library holds; at least ${pct(P.minCoverage)} is needed`;
}

function pct(x: number): string {
  return `${Math.round(x * 100)}%`;
}
