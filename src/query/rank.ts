/**
 * Ranking for one query (SPEC §5, GoS §3.3): BM25F over the fielded lexicon and a TF-IDF vector
 * cosine give hybrid seeds; Personalized PageRank over the typed, reverse-aware operator spreads
 * their mass to prerequisites and neighbours; a rerank adds direct matches in the fields that name
 * a skill. Only parents are ranked. When the best seed covers too little of the weight of the query
 * terms the library holds, the answer is NO_SKILL_HIT instead of the least bad skills.
 */
import { contentWords, indexTerm } from '../text/tokens.js';
import { EDGE_TYPES, FIELDS, type EdgeType, type ParentNode } from '../graph/types.js';
import type { GraphIndex } from './graph-index.js';
import { roundTo } from '../util/round.js';
import { compareCodeUnits } from '../util/stable-json.js';
import { tfidfWeight } from '../propose/tfidf.js';

export interface HitScores {
  /** BM25F, raw. */
  readonly lexical: number;
  /** TF-IDF cosine with the query. */
  readonly vector: number;
  /** Seed probability (0 when not a seed). */
  readonly seed: number;
  /** Stationary PPR score scaled by the best parent's. */
  readonly graph: number;
  /** Share of the query's IDF mass matched in name, description and I/O. */
  readonly field: number;
}

export interface RankedHit {
  readonly node: ParentNode;
  readonly score: number;
  readonly scores: HitScores;
  /** How diffusion reached a hit that is not a seed: the largest inflow. */
  readonly via: { readonly type: EdgeType; readonly reverse: boolean; readonly from: string } | null;
  /** Library paths of skills whose SKILL.md is byte for byte this hit's, ranked below it and folded into it. */
  readonly alsoAt?: readonly string[];
  /** Library paths of other versions of this skill (VERSION_SEM), ranked below it and folded into it. */
  readonly versions?: readonly string[];
}

export interface Ranking {
  readonly terms: readonly string[];
  /** Query terms that no skill contains, sorted. */
  readonly unknownTerms: readonly string[];
  /** Best coverage by one seed of the query's attainable weight (the terms some skill contains). */
  readonly coverage: number;
  /** Terms added to the query by pseudo-relevance feedback, heaviest first (none when the query's own decided). */
  readonly feedback: readonly string[];
  readonly hits: readonly RankedHit[];
}

/** Fields counted as "direct field matches" in the rerank (GoS eq. 5: name, capability, artifacts). */
export const MATCH_FIELDS: readonly number[] = [FIELDS.indexOf('name'), FIELDS.indexOf('description'), FIELDS.indexOf('io')];
const BODY = FIELDS.indexOf('body');
/** At most what the graph adds to a hit's score: under the weakest seed's text share (seeds.minRatio). */
const GRAPH_BOOST = 0.05;
/**
 * With `foldVersions`, a lower hit is another version of a higher one when both carry the same
 * name or folder name (sameSkillName) and a sem edge of at least this cosine joins them: one skill republished by several
 * packages, or translated (the prose of a Chinese or Japanese copy is not in the terms, its code
 * and English words are; such pairs join at 0.92 to 0.97 on the distractor library, unrelated
 * skills of one name far lower). Off by default: a benchmark that wants one version by its path
 * (each skillsbench task folder ships its own) finds it named in `versions`, not as a hit
 * (BENCHMARKS.md: dev instructions MRR 0.740 → 0.721 counted by path, 0.745 counting versions).
 */
export const VERSION_SEM = 0.9;

/**
 * Whether two skills carry one name: the same frontmatter name, or the same folder name (a
 * translated copy renames the skill, `纳米PDF`, and keeps its folder, `nano-pdf`).
 */
function sameSkillName(a: ParentNode, b: ParentNode): boolean {
  const name = (n: ParentNode) => n.name.trim().toLowerCase();
  const folder = (n: ParentNode) => n.path.slice(n.path.lastIndexOf('/') + 1).toLowerCase();
  return (name(a) !== '' && name(a) === name(b)) || (folder(a) !== '' && folder(a) === folder(b));
}
const semPairs = new WeakMap<GraphIndex, Map<string, number>>();

/** The weight of the sem edge between two nodes (either direction), 0 when none. */
function semWeight(index: GraphIndex, a: string, b: string): number {
  let pairs = semPairs.get(index);
  if (!pairs) {
    pairs = new Map();
    for (const e of index.edges) if (e.type === 'sem') pairs.set(`${e.from}\0${e.to}`, Math.max(e.weight, pairs.get(`${e.from}\0${e.to}`) ?? 0));
    semPairs.set(index, pairs);
  }
  return Math.max(pairs.get(`${a}\0${b}`) ?? 0, pairs.get(`${b}\0${a}`) ?? 0);
}

/**
 * The query's cosine with every document's dense vector (`--embeddings`), and how much of a seed's
 * text score it makes: the seed score becomes (1 − weight) × the lexical mix + weight × cosine over
 * the best cosine. Coverage and NO_SKILL_HIT stay those of the query's words.
 */
export interface DenseScores {
  readonly cosines: Float64Array;
  readonly weight: number;
}

/**
 * A seed's share from dense vectors by default. With a small local encoder (USE-lite, BENCHMARKS.md,
 * issue 21) shares of 0.3 to 0.5 did best on short task names, and no share helped long
 * instructions; no hosted model could be measured.
 */
export const DEFAULT_DENSE_WEIGHT = 0.35;

/** Cosines of a query vector with every row of `vectors` (both L2-normalised), negatives as 0. */
export function denseCosines(vectors: Float32Array, query: Float32Array): Float64Array {
  const d = query.length;
  const n = d === 0 ? 0 : vectors.length / d;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let dot = 0;
    for (let j = 0, at = i * d; j < d; j++, at++) dot += vectors[at]! * query[j]!;
    out[i] = dot > 0 ? dot : 0;
  }
  return out;
}

export interface RankOptions {
  /** Pseudo-relevance feedback when the query's own words cover little (default on). */
  readonly feedback?: boolean;
  readonly dense?: DenseScores;
  /** Fold other versions of a higher hit into it (VERSION_SEM; default off: `--fold-versions`). */
  readonly foldVersions?: boolean;
}

export function rank(index: GraphIndex, query: string, k: number, options: RankOptions = {}): Ranking {
  const F = index.parameters.feedback;
  const counts = queryTermCounts(query);
  const useFeedback = options.feedback !== false && F.terms > 0 && F.weight > 0;
  const dense = options.dense && options.dense.cosines.length === index.docs.length && options.dense.weight > 0 ? options.dense : undefined;
  const fold = options.foldVersions === true;
  const first = rankTerms(index, counts, useFeedback ? Math.max(k, F.docs) : k, dense, fold);
  const answer = (hits: readonly RankedHit[], feedback: readonly string[]): Ranking => ({ terms: first.terms, unknownTerms: first.unknownTerms, coverage: first.coverage, feedback, hits: hits.slice(0, k) });
  // The query already speaks the words of a skill (or of none): its own terms decide.
  if (!useFeedback || first.hits.length === 0 || first.coverage >= F.maxCoverage) return answer(first.hits, []);
  const added = feedbackTerms(first.hits.slice(0, F.docs), F.terms, F.weight);
  if (added.size === 0) return answer(first.hits, []);
  const expanded = new Map(counts);
  for (const [t, w] of added) expanded.set(t, (expanded.get(t) ?? 0) + w);
  const second = rankTerms(index, expanded, k, dense, fold);
  // NO_SKILL_HIT was decided on the query's own terms; the expanded one cannot take hits away.
  return second.hits.length > 0 ? answer(second.hits, [...added.keys()]) : answer(first.hits, []);
}

/**
 * Pseudo-relevance feedback (Rocchio, RM3): the words the best hits share, which a task worded
 * otherwise than the skills lacks. Each hit's distinctive terms (ParentNode.terms) weigh by the
 * hit's score over the best's; the `count` heaviest are added, the heaviest with query-term
 * frequency `weight`, the rest in proportion. Ties go to the term that sorts first.
 */
export function feedbackTerms(hits: readonly RankedHit[], count: number, weight: number): Map<string, number> {
  const sum = new Map<string, number>();
  const best = hits[0]?.score ?? 0;
  if (best <= 0) return new Map();
  for (const h of hits) for (const [t, w] of h.node.terms) sum.set(t, (sum.get(t) ?? 0) + (h.score / best) * w);
  const heaviest = [...sum].sort((a, b) => b[1] - a[1] || compareCodeUnits(a[0], b[0])).slice(0, count);
  const top = heaviest[0]?.[1] ?? 0;
  if (!(top > 0)) return new Map();
  return new Map(heaviest.map(([t, w]) => [t, (weight * w) / top]));
}

/** The ranking for query terms with their frequencies: the query's own, sorted by term, then any feedback terms (fractional). */
function rankTerms(index: GraphIndex, counts: ReadonlyMap<string, number>, k: number, dense: DenseScores | undefined, foldVersions: boolean): Omit<Ranking, 'feedback'> {
  const P = index.parameters;
  const nDocs = index.docs.length;
  const terms = [...counts.keys()];
  const unknownTerms: string[] = [];
  if (terms.length === 0 || nDocs === 0) return { terms, unknownTerms: terms, coverage: 0, hits: [] };

  const lexical = new Float64Array(nDocs);
  const dot = new Float64Array(nDocs);
  const matched = new Float64Array(nDocs);
  const fieldMatched = new Float64Array(nDocs);
  /** IDF weight of the query terms some skill contains: what the best match is measured against. */
  let attainable = 0;
  let queryNorm = 0;
  const weights = FIELDS.map((f) => P.bm25.fieldWeights[f]);
  for (const t of terms) {
    const list = index.postings(t);
    if (list.length === 0) {
      unknownTerms.push(t);
      continue;
    }
    // BM25's query-term factor: a term the task repeats weighs more, with diminishing returns.
    const qtf = counts.get(t)!;
    const qw = ((P.bm25.k3 + 1) * qtf) / (P.bm25.k3 + qtf);
    // Documents containing the term (a document may have several triples, one per field).
    let df = 0;
    let bodyDf = 0;
    for (let i = 0; i < list.length; i += 3) {
      if (i === 0 || list[i] !== list[i - 3]) df++;
      if (list[i + 1] === BODY) bodyDf++;
    }
    const idf = Math.log(1 + (nDocs - df + 0.5) / (df + 0.5));
    attainable += qw * idf;
    // The query is a document with tf 1 per term; a term absent from every body still counts in its norm.
    const vidf = tfidfWeight(1, bodyDf, nDocs);
    queryNorm += vidf ** 2;
    for (let i = 0; i < list.length; ) {
      const d = list[i]!;
      let tf = 0;
      let inMatchField = false;
      for (; i < list.length && list[i] === d; i += 3) {
        const f = list[i + 1]!;
        const raw = list[i + 2]!;
        const norm = 1 - P.bm25.b + (P.bm25.b * index.lengths[f]![d]!) / (index.avgLength[f]! || 1);
        tf += (weights[f]! * raw) / norm;
        if (MATCH_FIELDS.includes(f)) inMatchField = true;
        if (f === BODY) dot[d]! += vidf * tfidfWeight(raw, bodyDf, nDocs);
      }
      lexical[d]! += (qw * idf * tf) / (P.bm25.k1 + tf);
      matched[d]! += qw * idf;
      if (inMatchField) fieldMatched[d]! += qw * idf;
    }
  }
  const norms = index.norms;
  const vector = new Float64Array(nDocs);
  for (let d = 0; d < nDocs; d++) if (dot[d]! > 0) vector[d] = dot[d]! / (norms[d]! * Math.sqrt(queryNorm) || 1);

  // Hybrid seeds (GoS eq. 2): both signals scaled to [0, 1] before mixing.
  const maxLex = Math.max(...lexical, 0);
  const maxVec = Math.max(...vector, 0);
  if (maxLex <= 0) return { terms, unknownTerms, coverage: 0, hits: [] };
  const z = Array.from(lexical, (l, d) => P.seeds.eta * (maxVec > 0 ? vector[d]! / maxVec : 0) + (1 - P.seeds.eta) * (l / maxLex));
  if (dense) {
    const maxDense = Math.max(...dense.cosines, 0);
    if (maxDense > 0) for (let d = 0; d < nDocs; d++) z[d] = (1 - dense.weight) * z[d]! + dense.weight * (dense.cosines[d]! / maxDense);
  }
  const maxZ = Math.max(...z);
  const seeds = z
    .map((s, d) => ({ d, s }))
    .filter((x) => x.s > 0 && x.s >= P.seeds.minRatio * maxZ)
    .sort((a, b) => b.s - a.s || idOrder(index, a.d, b.d))
    .slice(0, P.seeds.count);
  // A share of what the library could match: a two-word query and a 300-word instruction full of
  // file names meet the same bar, and so do a library of six skills and one of thousands (a share
  // of all the query's terms fell with the query's length and rose with the library's vocabulary).
  const coverage = roundTo(Math.max(...seeds.map((x) => matched[x.d]! / attainable)), 6);
  if (coverage < P.minCoverage) return { terms, unknownTerms, coverage, hits: [] };

  const n = index.nodeIds.length;
  const p = new Float64Array(n);
  const total = seeds.reduce((a, x) => a + x.s, 0);
  for (const x of seeds) p[index.docs[x.d]!] = x.s / total;
  const s = personalizedPageRank(index, p);

  let maxGraph = 0;
  for (let d = 0; d < nDocs; d++) maxGraph = Math.max(maxGraph, s[index.docs[d]!]!);
  // Every document over the graph floor is scored; only the k kept get their score breakdown, the
  // edge that brought them in and their node record (read from the index).
  const candidates: number[] = [];
  const score = new Float64Array(nDocs);
  for (let d = 0; d < nDocs; d++) {
    const node = index.docs[d]!;
    const graph = s[node]! / maxGraph;
    if (graph < P.rerank.minGraphRatio) continue;
    // Seeds are ordered by their text score (hybrid BM25F and vector, plus direct field matches);
    // the graph adds a bounded boost, below the weakest seed's text score, so it brings in
    // prerequisites and neighbours after the seeds without reordering them by degree.
    const text = p[node]! > 0 ? z[d]! / maxZ + P.rerank.mu * (fieldMatched[d]! / attainable) : 0;
    score[d] = roundTo(text + GRAPH_BOOST * graph, 6);
    candidates.push(d);
  }
  candidates.sort((a, b) => score[b]! - score[a]! || idOrder(index, a, b));
  // A skill whose SKILL.md is byte for byte a higher hit's (libraries hold one skill under several
  // folders) is folded into that hit: the agent gets k different skills, and the copy's path. So,
  // with foldVersions, is another version of a higher hit (VERSION_SEM): a library that ships each
  // skill in five languages would otherwise answer one skill five times.
  const hits: RankedHit[] = [];
  const at = new Map<string, number>();
  for (const d of candidates) {
    if (hits.length >= k) break;
    const parent = index.parent(d);
    const same = at.get(parent.copyOf ?? parent.path);
    if (same !== undefined) {
      const h = hits[same]!;
      hits[same] = { ...h, alsoAt: [...(h.alsoAt ?? []), parent.path] };
      continue;
    }
    const version = !foldVersions ? -1 : hits.findIndex((h) => sameSkillName(h.node, parent) && semWeight(index, h.node.id, parent.id) >= VERSION_SEM);
    if (version >= 0) {
      const h = hits[version]!;
      hits[version] = { ...h, versions: [...(h.versions ?? []), parent.path] };
      continue;
    }
    at.set(parent.copyOf ?? parent.path, hits.length);
    const node = index.docs[d]!;
    const scores = { lexical: roundTo(lexical[d]!, 6), vector: roundTo(vector[d]!, 6), seed: roundTo(p[node]!, 6), graph: roundTo(s[node]! / maxGraph, 6), field: roundTo(fieldMatched[d]! / attainable, 6) };
    hits.push({ node: parent, score: score[d]!, scores, via: p[node]! > 0 ? null : strongestInflow(index, s, node) });
  }
  return { terms, unknownTerms, coverage, hits };
}

/**
 * Characters of a query that ranking reads; the rest is ignored. Term extraction costs about
 * 0.35 s per MB of distinct words (12.7 MB: 3.8 s), so a bound keeps one hostile query from
 * holding a retriever that serves others; no task description comes near it (and a command-line
 * argument on Linux holds at most 128 KiB).
 */
export const MAX_RANKED_QUERY_CHARS = 100_000;

/**
 * The query's distinct content terms, sorted: the build's tokenisation (text/tokens.ts) of its
 * first MAX_RANKED_QUERY_CHARS characters (without the word cut there).
 */
export function queryTerms(query: string): string[] {
  return [...queryTermCounts(query).keys()];
}

/**
 * Each distinct query term and how often the query uses it, in term order.
 */
export function queryTermCounts(query: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { term } of queryWords(query)) counts.set(term, (counts.get(term) ?? 0) + 1);
  return new Map([...counts].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
}

/**
 * The query's content words in the order it says them, each with its index term (indexTerm), from
 * its first MAX_RANKED_QUERY_CHARS characters (without the word cut there). A word of one letter
 * repeated (`xxxx`, `yyyy`) is a placeholder or filler, not something a task asks for, and is
 * dropped: skills that show date formats or masked values would otherwise match it.
 */
export function queryWords(query: string): { readonly word: string; readonly term: string }[] {
  const read = rankedPart(query);
  const out: { word: string; term: string }[] = [];
  for (const w of contentWords(read)) {
    if (/^([a-z])\1+$/.test(w)) continue;
    out.push({ word: w, term: indexTerm(w) });
  }
  return out;
}

/** The part of a query that ranking reads: its first MAX_RANKED_QUERY_CHARS characters, without a word the cut went through. */
export function rankedPart(query: string): string {
  if (query.length <= MAX_RANKED_QUERY_CHARS) return query;
  let end = MAX_RANKED_QUERY_CHARS;
  // Back off over a word the cut went through (a loop: an end-anchored regex is quadratic in a long run).
  if (isWordChar(query.charCodeAt(end))) while (end > 0 && isWordChar(query.charCodeAt(end - 1))) end--;
  return query.slice(0, end);
}

/** ASCII letters and digits: what `words` builds words from. */
function isWordChar(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/**
 * s = α·p + (1 − α)·Tᵀ·s, iterated to the tolerance (GoS eq. 4). Only nodes the seeds' mass has
 * reached are visited (a seed's component is often a third of the graph, or itself alone), in
 * ascending order as a pass over every node would add them, so the sums are the same to the bit.
 */
export function personalizedPageRank(index: GraphIndex, p: Float64Array): Float64Array {
  const { restart, iterations, tolerance } = index.parameters.ppr;
  const { start, to, p: prob } = index.operator;
  const n = p.length;
  let s = Float64Array.from(p);
  const reached = new Uint8Array(n);
  let active: number[] = [];
  for (let v = 0; v < n; v++) {
    if (p[v] === 0) continue;
    active.push(v);
    reached[v] = 1;
  }
  for (let it = 0; it < iterations; it++) {
    const next = new Float64Array(n);
    for (const v of active) next[v] = restart * p[v]!;
    const added: number[] = [];
    for (const u of active) {
      const mass = s[u]!;
      if (mass === 0) continue;
      for (let j = start[u]!; j < start[u + 1]!; j++) {
        const v = to[j]!;
        next[v]! += (1 - restart) * mass * prob[j]!;
        if (reached[v]) continue;
        added.push(v);
        reached[v] = 1;
      }
    }
    if (added.length > 0) active = [...active, ...added].sort((a, b) => a - b);
    let delta = 0;
    for (const v of active) delta += Math.abs(next[v]! - s[v]!);
    s = next;
    if (delta < tolerance) break;
  }
  return s;
}

function strongestInflow(index: GraphIndex, s: Float64Array, node: number): RankedHit['via'] {
  const { inStart, inRow, inFrom, p, type, reverse } = index.operator;
  let best: RankedHit['via'] = null;
  let bestMass = 0;
  for (let k = inStart[node]!; k < inStart[node + 1]!; k++) {
    const from = inFrom[k]!;
    const j = inRow[k]!;
    const mass = s[from]! * p[j]!;
    if (from !== node && mass > bestMass) {
      bestMass = mass;
      best = { type: EDGE_TYPES[type[j]!]!, reverse: reverse[j] === 1, from: index.nodeIds[from]! };
    }
  }
  return best;
}

/** Ties go to the skill whose path sorts first (a skill's node id is `skill:` and its path). */
function idOrder(index: GraphIndex, a: number, b: number): number {
  return compareCodeUnits(index.nodeIds[index.docs[a]!]!, index.nodeIds[index.docs[b]!]!);
}
