/**
 * Plans for multi-step tasks (issue 21 item 4): the skills a task needs, in the order they are
 * used. Selection starts from the ranking `skillc query` uses: every seed whose score is at least
 * PLAN_SCORE_RATIO of the best is a step (the task's own words name it), and so is a ranked skill
 * with a dep or wf edge into a step (a prerequisite: it makes what the step takes, or a workflow puts
 * it first; diffusion ranks such skills even when the task's words do not name them).
 * Order: producers before consumers along the dep and wf edges between steps (a dep edge runs from
 * the skill that outputs an artifact to the one that takes it as input; a wf edge from a skill to
 * the one it says comes next); otherwise the order in which the task names what each step is for
 * (whereNamed), rank order among steps the same clause names. Each step comes right after the steps
 * it waits on; a cycle is cut where the walk meets it, so the order is total and fixed.
 *
 * Pure: ranking and graph in, steps out. Hydration (bundles under the budget) and the contracts the
 * steps invoke are added by the retriever.
 */
import type { EdgeType } from '../graph/types.js';
import type { GraphIndex, QueryEdge } from './graph-index.js';
import { CITED } from '../graph/query-index.js';
import { MATCH_FIELDS, queryWords, rank, rankedPart, type RankedHit, type Ranking } from './rank.js';

/** A seed is a step when its score reaches this share of the best seed's (tuned on the dev sets, BENCHMARKS.md). */
export const PLAN_SCORE_RATIO = 0.6;
/** Ranked hits a plan chooses from: enough to reach prerequisites diffusion put after the seeds. */
export const PLAN_POOL = 40;
/** Edges that order steps: a produced artifact consumed, a workflow's next step (the index keeps their evidence). */
const ORDERING: readonly EdgeType[] = CITED;

export interface StepReason {
  /** The other step (1-based): the one this step follows (`after`) or feeds (`feeds`). */
  readonly step: number;
  readonly type: EdgeType;
  /** The edge's first evidence, e.g. "outputs pcap". */
  readonly detail: string;
}

export interface PlanStep {
  readonly hit: RankedHit;
  /** `match`: the task's words found it; `prerequisite`: it feeds a step along a dep or wf edge. */
  readonly role: 'match' | 'prerequisite';
  /** Earlier steps whose output or workflow this step follows. */
  readonly after: readonly StepReason[];
  /** Steps this one feeds: they take what it outputs, or a workflow puts them after it. */
  readonly feeds: readonly StepReason[];
  /** The task's words this skill's name, description or I/O hold (any of its text when those hold none), in the task's order. */
  readonly serves: readonly string[];
}

export interface PlanRanking extends Ranking {
  readonly steps: readonly PlanStep[];
}

export function planSteps(index: GraphIndex, query: string, maxSteps: number, options: { readonly foldVersions?: boolean } = {}): PlanRanking {
  return planFromRanking(index, query, planRanking(index, query, maxSteps, options), maxSteps);
}

/** The ranking a plan of at most `maxSteps` steps chooses from (a plan of fewer steps may choose from the same). */
export function planRanking(index: GraphIndex, query: string, maxSteps: number, options: { readonly foldVersions?: boolean } = {}): Ranking {
  // No feedback: it pulls the ranking towards the best hits' topic, and a plan serves every need a
  // task names (with it, "clone a repository, set up a python environment and download a dataset"
  // lost the python step to the download skill's neighbours; plan recall on the dev sets was the same).
  return rank(index, query, Math.max(PLAN_POOL, maxSteps), { feedback: false, foldVersions: options.foldVersions === true });
}

/** The plan of at most `maxSteps` steps from a ranking of the task (planRanking). */
export function planFromRanking(index: GraphIndex, query: string, ranking: Ranking, maxSteps: number): PlanRanking {
  if (ranking.hits.length === 0) return { ...ranking, steps: [] };
  const best = ranking.hits[0]!.score;
  const chosen: { hit: RankedHit; role: PlanStep['role']; rank: number }[] = [];
  const ids = new Set<string>();
  // Byte-identical copies of a skill are already one hit (rank.ts folds them), and so are other
  // versions with --fold-versions. Near-copies are otherwise not dropped: they are often versions
  // of a skill that differ where it matters (skipping those with a sem cosine of 0.9 or more cost
  // plan recall 0.596 → 0.564 on the dev instructions).
  ranking.hits.forEach((hit, rank) => {
    if (chosen.length >= maxSteps || hit.scores.seed === 0 || hit.score < PLAN_SCORE_RATIO * best) return;
    chosen.push({ hit, role: 'match', rank });
    ids.add(hit.node.id);
  });
  // Prerequisites: a ranked skill with a dep or wf edge into a step (it makes what the step takes,
  // or a workflow puts it first), in rank order, then theirs, until no more are found or the plan is full.
  const ordering = index.edges.filter((e) => ORDERING.includes(e.type) && e.from !== e.to);
  const rankOf = new Map(ranking.hits.map((h, r) => [h.node.id, r]));
  for (let added = true; added && chosen.length < maxSteps; ) {
    added = false;
    const feeding = [...new Set(ordering.filter((e) => ids.has(e.to) && !ids.has(e.from) && rankOf.has(e.from)).map((e) => e.from))];
    for (const id of feeding.sort((a, b) => rankOf.get(a)! - rankOf.get(b)!)) {
      if (chosen.length >= maxSteps) break;
      const rank = rankOf.get(id)!;
      chosen.push({ hit: ranking.hits[rank]!, role: 'prerequisite', rank });
      ids.add(id);
      added = true;
    }
  }

  const between = ordering.filter((e) => ids.has(e.from) && ids.has(e.to));
  const named = whereNamed(index, query, chosen.map((c) => c.hit));
  const order = topologicalOrder(chosen.map((c) => ({ ...c, at: named.get(c.hit.node.id)!.at })), between);
  const stepOf = new Map(order.map((c, i) => [c.hit.node.id, i + 1]));
  const reason = (e: QueryEdge, other: string): StepReason => ({ step: stepOf.get(other)!, type: e.type, detail: e.detail || e.type });
  const byStep = (a: StepReason, b: StepReason) => a.step - b.step || (a.type < b.type ? -1 : a.type > b.type ? 1 : 0);
  const steps = order.map((c): PlanStep => {
    const id = c.hit.node.id;
    const after = between.filter((e) => e.to === id && stepOf.get(e.from)! < stepOf.get(id)!).map((e) => reason(e, e.from));
    const feeds = between.filter((e) => e.from === id).map((e) => reason(e, e.to));
    return { hit: c.hit, role: c.role, after: dedupe(after.sort(byStep)), feeds: dedupe(feeds.sort(byStep)), serves: named.get(id)!.serves };
  });
  return { ...ranking, steps };
}

/**
 * Where the task names each hit's work, and with which of its words. A hit's terms are the task's
 * terms its name, description or I/O hold (what a skill says it is for), or any of its fields when
 * those hold none. The task is read as clauses (taskClauses); a hit stands at the clause whose words it holds the most IDF weight of (the
 * first on a tie): a task states its steps in the order they are done ("download a video, extract
 * the audio, transcribe it") far more often than a ranking puts them, and a word most skills share,
 * or one the task's opening sentence says in passing, moves a hit little. A hit none of whose terms
 * the task says stands last.
 */
function whereNamed(index: GraphIndex, query: string, hits: readonly RankedHit[]): Map<string, { at: number; serves: string[] }> {
  const said = new Map<string, { at: number; word: string; clauses: number[] }>();
  let at = 0;
  taskClauses(query).forEach((clause, c) => {
    for (const { word, term } of queryWords(clause)) {
      const seen = said.get(term);
      if (!seen) said.set(term, { at: at++, word, clauses: [c] });
      else if (seen.clauses.at(-1) !== c) seen.clauses.push(c);
    }
  });
  const docOf = new Map<number, number>();
  index.docs.forEach((node, d) => docOf.set(node, d));
  const wanted = new Map(hits.map((h) => [docOf.get(index.nodeIndex.get(h.node.id)!)!, h.node.id]));
  const held = new Map(hits.map((h) => [h.node.id, { named: [] as string[], any: [] as string[] }]));
  const idf = new Map<string, number>();
  const nDocs = index.docs.length;
  for (const term of said.keys()) {
    const list = index.postings(term);
    let df = 0;
    for (let i = 0; i < list.length; i += 3) {
      if (i === 0 || list[i] !== list[i - 3]) df++;
      const id = wanted.get(list[i]!);
      if (id === undefined) continue;
      const h = held.get(id)!;
      if (h.any.at(-1) !== term) h.any.push(term);
      if (MATCH_FIELDS.includes(list[i + 1]!) && h.named.at(-1) !== term) h.named.push(term);
    }
    idf.set(term, Math.log(1 + (nDocs - df + 0.5) / (df + 0.5)));
  }
  const out = new Map<string, { at: number; serves: string[] }>();
  for (const [id, h] of held) {
    const terms = (h.named.length > 0 ? h.named : h.any).sort((a, b) => said.get(a)!.at - said.get(b)!.at);
    const weight = new Map<number, number>();
    for (const t of terms) for (const c of said.get(t)!.clauses) weight.set(c, (weight.get(c) ?? 0) + idf.get(t)!);
    let best = Number.MAX_SAFE_INTEGER;
    for (const [c, w] of weight) if (best === Number.MAX_SAFE_INTEGER || w > weight.get(best)! || (w === weight.get(best)! && c < best)) best = c;
    out.set(id, { at: best, serves: terms.map((t) => said.get(t)!.word) });
  }
  return out;
}

/**
 * The task's clauses: split at a sentence end, semicolon, colon or comma followed by a space, at
 * line breaks, and before "then" ("set up the environment then download the data"). A period
 * followed by no space (`model.py`) splits nothing; "and" splits nothing either ("read and
 * write", "search and replace" are one step).
 */
export function taskClauses(query: string): string[] {
  return rankedPart(query)
    .split(/[.;:!?,](?=\s)|\n|\s(?=then\s)/i)
    .filter((c) => c.trim() !== '');
}

/**
 * Steps in the order the task names them (whereNamed; rank breaks ties), each preceded by the
 * steps it waits on (a depth-first walk of the dep and wf edges between steps), so that each
 * prerequisite stands right before the step it feeds. A step already on the walk's path (a cycle)
 * is not waited on again, so every step is placed once and the order is fixed.
 */
function topologicalOrder<T extends { hit: RankedHit; rank: number; at: number }>(items: readonly T[], edges: readonly QueryEdge[]): T[] {
  const byTask = (a: T, b: T) => a.at - b.at || a.rank - b.rank;
  const byId = new Map(items.map((c) => [c.hit.node.id, c]));
  const waitsOn = new Map(items.map((c) => [c.hit.node.id, [] as T[]]));
  for (const e of edges) waitsOn.get(e.to)!.push(byId.get(e.from)!);
  for (const list of waitsOn.values()) list.sort(byTask);
  const out: T[] = [];
  const placed = new Set<string>();
  const onPath = new Set<string>();
  const place = (c: T) => {
    const id = c.hit.node.id;
    if (placed.has(id) || onPath.has(id)) return;
    onPath.add(id);
    for (const before of waitsOn.get(id)!) place(before);
    onPath.delete(id);
    placed.add(id);
    out.push(c);
  };
  for (const c of [...items].sort(byTask)) place(c);
  return out;
}

function dedupe(reasons: readonly StepReason[]): StepReason[] {
  const seen = new Set<string>();
  return reasons.filter((r) => {
    const key = `${r.step} ${r.type}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
