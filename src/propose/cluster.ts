/**
 * True single-linkage clustering with union-find (SPEC §2, pass 2). Two units are linked when they
 * share a verb class (the block) and their cosine reaches the threshold. Candidate pairs are not all
 * pairs: each unit is compared with the next `window` units in the posting list of each of its top
 * `topK` terms within its block (a sorted-neighbourhood inverted index). Pairs already in one
 * component are skipped, which keeps dense groups of near-identical units cheap without changing
 * the components. Sub-quadratic: at most n·topK·window comparisons.
 */
import { SpreadVector, topTerms, type SparseVector } from './tfidf.js';

export interface LinkOptions {
  readonly threshold: number;
  readonly topK?: number;
  readonly window?: number;
}

export interface LinkResult {
  /** Component label (smallest member index) per item. */
  readonly component: Int32Array;
  /** Smallest accepted edge cosine per component root. */
  readonly minEdge: Map<number, number>;
  readonly comparisons: number;
}

export function singleLinkage(vectors: readonly SparseVector[], blocks: readonly (string | null)[], opts: LinkOptions): LinkResult {
  const n = vectors.length;
  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) parent[i] = i;
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!;
      x = parent[x]!;
    }
    return x;
  };
  const minEdge = new Map<number, number>();
  const union = (a: number, b: number, c: number) => {
    const ra = find(a);
    const rb = find(b);
    const lo = Math.min(ra, rb);
    const hi = Math.max(ra, rb);
    parent[hi] = lo;
    minEdge.set(lo, Math.min(c, minEdge.get(lo) ?? 1, minEdge.get(hi) ?? 1));
    minEdge.delete(hi);
  };

  const topK = opts.topK ?? 8;
  const window = opts.window ?? 32;
  // Postings per (block, term), in item order. A (block, term) pair gets a small number on first
  // sight (a map of terms per block), and each item keeps the numbers of its top terms' lists
  // (string keys cost more than the comparisons on large libraries).
  const listIdsOf = new Map<string, Map<number, number>>();
  const postings: number[][] = [];
  const tops: number[][] = [];
  for (let i = 0; i < n; i++) {
    const block = blocks[i];
    if (block === null || block === undefined) {
      tops.push([]);
      continue;
    }
    let listIds = listIdsOf.get(block);
    if (!listIds) listIdsOf.set(block, (listIds = new Map()));
    const lists: number[] = [];
    for (const t of topTerms(vectors[i]!, topK)) {
      let id = listIds.get(t);
      if (id === undefined) {
        listIds.set(t, (id = postings.length));
        postings.push([]);
      }
      postings[id]!.push(i);
      lists.push(id);
    }
    tops.push(lists);
  }
  const position = new Int32Array(postings.length);
  let comparisons = 0;
  const spread = new SpreadVector();
  for (let i = 0; i < n; i++) {
    if (tops[i]!.length === 0) continue;
    spread.load(vectors[i]!);
    for (const id of tops[i]!) {
      const list = postings[id]!;
      const at = position[id]!;
      position[id] = at + 1;
      for (let k = at + 1; k < list.length && k <= at + window; k++) {
        const j = list[k]!;
        if (find(i) === find(j)) continue;
        comparisons++;
        const c = spread.cosine(vectors[j]!);
        if (c >= opts.threshold) union(i, j, c);
      }
    }
  }
  const component = new Int32Array(n);
  for (let i = 0; i < n; i++) component[i] = find(i);
  return { component, minEdge, comparisons };
}

export interface CoreOptions {
  /** Least cosine of every member to its cluster's centroid. */
  readonly coreMin: number;
  /** How much the link threshold rises each time a cluster is split again. */
  readonly step?: number;
}

/**
 * Bounded clusters (issue 19 item 3): single linkage chains units through one close pair at a
 * time, so a component can join sections that share nothing (an "Installation" section, then a
 * "Requirements" one, then "Dependency Injection Changes"). A component whose members do not all
 * stay near its centroid (cosine ≥ coreMin: a complete-linkage-like core) is linked again, among
 * its own members, at a higher threshold, and so on until every part has a core or the threshold
 * reaches 1. Returns the parts as lists of item indices, each in ascending order; singletons dropped.
 */
export function splitChains(vectors: readonly SparseVector[], blocks: readonly (string | null)[], members: readonly number[], threshold: number, opts: CoreOptions): number[][] {
  if (members.length < 3 || hasCore(vectors, members, opts.coreMin)) return members.length >= 2 ? [[...members]] : [];
  const next = threshold + (opts.step ?? 0.05);
  if (next >= 1) return [];
  const sub = singleLinkage(members.map((i) => vectors[i]!), members.map((i) => blocks[i]!), { threshold: next });
  const parts = new Map<number, number[]>();
  sub.component.forEach((root, k) => {
    let p = parts.get(root);
    if (!p) parts.set(root, (p = []));
    p.push(members[k]!);
  });
  return [...parts.values()].flatMap((p) => splitChains(vectors, blocks, p, next, opts));
}

/** Whether every member's cosine to the members' normalised centroid reaches `min`. */
export function hasCore(vectors: readonly SparseVector[], members: readonly number[], min: number): boolean {
  // The centroid's sums by term id in a table, and the terms in the order they were first met: the
  // norm adds their squares in that order. The tables are kept between calls, cleared term by term.
  let top = 0;
  for (const i of members) {
    const v = vectors[i]!;
    if (v.terms.length > 0) top = Math.max(top, v.terms[v.terms.length - 1]! + 1);
  }
  if (top > centroid.length) {
    centroid = new Float64Array(Math.max(top, centroid.length * 2));
    met = new Uint8Array(centroid.length);
  }
  const sum = centroid;
  const order: number[] = [];
  for (const i of members) {
    const v = vectors[i]!;
    for (let k = 0; k < v.terms.length; k++) {
      const t = v.terms[k]!;
      if (met[t] === 0) {
        met[t] = 1;
        order.push(t);
      }
      sum[t]! += v.weights[k]!;
    }
  }
  let norm = 0;
  for (const t of order) norm += sum[t]! * sum[t]!;
  norm = Math.sqrt(norm) || 1;
  for (const i of members) {
    const v = vectors[i]!;
    let dot = 0;
    for (let k = 0; k < v.terms.length; k++) dot += v.weights[k]! * sum[v.terms[k]!]!;
    if (dot / norm < min) {
      clearCentroid(order);
      return false;
    }
  }
  clearCentroid(order);
  return true;
}

let centroid = new Float64Array(0);
let met = new Uint8Array(0);

function clearCentroid(terms: readonly number[]): void {
  for (const t of terms) {
    centroid[t] = 0;
    met[t] = 0;
  }
}
