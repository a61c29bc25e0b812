/**
 * TF-IDF unit vectors over stemmed content tokens (the default embedding; SPEC §2 pass 2).
 * Vectors are sparse, sorted by term id and L2-normalised, so cosine is a merge of two arrays.
 */
import { contentTokens, indexTokens } from '../text/tokens.js';

export interface SparseVector {
  readonly terms: Uint32Array;
  readonly weights: Float64Array;
}

export interface TfidfModel {
  readonly vectors: SparseVector[];
  readonly vocabulary: readonly string[];
}

/**
 * A text's content tokens counted: each distinct term once, in the order of its first occurrence,
 * and how many tokens the text has. What buildTfidf and the BM25F lexicon read of a text, and
 * small enough to keep between builds (the build cache's memo tables, emit/library.ts).
 */
export interface TermCounts {
  readonly terms: readonly string[];
  readonly counts: readonly number[];
  /** Tokens in all (the sum of counts). */
  readonly length: number;
}

export function termCounts(text: string): TermCounts {
  return countTokens(contentTokens(text));
}

/** termCounts over the graph index's terms (indexTokens: `n8n`, `k8s`, `ec2` are terms of their own). */
export function indexTermCounts(text: string): TermCounts {
  return countTokens(indexTokens(text));
}

function countTokens(tokens: readonly string[]): TermCounts {
  const at = new Map<string, number>();
  const terms: string[] = [];
  const counts: number[] = [];
  let length = 0;
  for (const tok of tokens) {
    length++;
    const i = at.get(tok);
    if (i === undefined) {
      at.set(tok, terms.length);
      terms.push(tok);
      counts.push(1);
    } else counts[i]!++;
  }
  return { terms, counts, length };
}

/** Whether a value read back from the build cache has the shape of TermCounts. */
export function isTermCounts(v: unknown): v is TermCounts {
  if (typeof v !== 'object' || v === null) return false;
  const { terms, counts, length } = v as Record<string, unknown>;
  if (!Array.isArray(terms) || !Array.isArray(counts) || terms.length !== counts.length || !Number.isInteger(length)) return false;
  let sum = 0;
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i] as unknown;
    const c = counts[i] as unknown;
    // A token is a stem of ASCII letters and digits (tokens.ts): anything else would be written
    // into the query index's postings as it is.
    if (typeof t !== 'string' || !/^[a-z0-9]+$/.test(t) || typeof c !== 'number' || !Number.isInteger(c) || c < 1) return false;
    sum += c;
  }
  return sum === length && new Set(terms).size === terms.length;
}

export function buildTfidf(texts: readonly string[]): TfidfModel {
  return buildTfidfFromCounts(texts.map(termCounts));
}

/** buildTfidf over texts already counted: term ids in order of first occurrence across the documents. */
export function buildTfidfFromCounts(docs: readonly TermCounts[]): TfidfModel {
  const termIds = new Map<string, number>();
  const df: number[] = [];
  const ids = docs.map((doc) => {
    const out = new Uint32Array(doc.terms.length);
    for (let k = 0; k < out.length; k++) {
      const tok = doc.terms[k]!;
      let id = termIds.get(tok);
      if (id === undefined) {
        id = termIds.size;
        termIds.set(tok, id);
        df.push(0);
      }
      df[id]!++;
      out[k] = id;
    }
    return out;
  });
  const n = docs.length;
  // A document's count of each of its terms, by term id; `owner` says which document wrote it, so
  // the tables are filled once for all documents, never cleared.
  const countOf = new Float64Array(termIds.size);
  const owner = new Int32Array(termIds.size).fill(-1);
  const vectors = docs.map((doc, d) => {
    const own = ids[d]!;
    let distinct = true;
    for (let k = 0; k < own.length; k++) {
      const id = own[k]!;
      if (owner[id] === d) distinct = false;
      owner[id] = d;
      countOf[id] = doc.counts[k]!;
    }
    // Counts from termCounts name each term once. A term named twice keeps both entries, in order.
    if (!distinct) return vectorOf(doc, own, df, n);
    const terms = own.slice().sort();
    const weights = new Float64Array(terms.length);
    let norm = 0;
    for (let i = 0; i < terms.length; i++) {
      const w = tfidfWeight(countOf[terms[i]!]!, df[terms[i]!]!, n);
      weights[i] = w;
      norm += w * w;
    }
    norm = Math.sqrt(norm) || 1;
    for (let i = 0; i < weights.length; i++) weights[i]! /= norm;
    return { terms, weights };
  });
  const vocabulary = new Array<string>(termIds.size);
  for (const [t, id] of termIds) vocabulary[id] = t;
  return { vectors, vocabulary };
}

/** One document's vector by a stable sort of its entries by term id (any counts, repeated terms too). */
function vectorOf(doc: TermCounts, ids: Uint32Array, df: readonly number[], n: number): SparseVector {
  const order = Array.from(ids.keys()).sort((a, b) => ids[a]! - ids[b]!);
  const weights = new Float64Array(order.length);
  let norm = 0;
  order.forEach((k, i) => {
    const w = tfidfWeight(doc.counts[k]!, df[ids[k]!]!, n);
    weights[i] = w;
    norm += w * w;
  });
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < weights.length; i++) weights[i]! /= norm;
  return { terms: Uint32Array.from(order, (k) => ids[k]!), weights };
}

/** The weight of a term occurring tf times in a document, in df of n documents: (1 + ln tf)·ln((1 + n)/(1 + df)). */
export function tfidfWeight(tf: number, df: number, n: number): number {
  return (1 + Math.log(tf)) * Math.log((1 + n) / (1 + df));
}

export function cosine(a: SparseVector, b: SparseVector): number {
  let i = 0;
  let j = 0;
  let dot = 0;
  while (i < a.terms.length && j < b.terms.length) {
    const x = a.terms[i]!;
    const y = b.terms[j]!;
    if (x === y) dot += a.weights[i++]! * b.weights[j++]!;
    else if (x < y) i++;
    else j++;
  }
  return dot;
}

/**
 * One vector spread over the vocabulary (a table by term id), so that its cosine with any other is
 * one pass over the other's terms instead of a merge of both. For vectors whose terms rise strictly
 * (every vector of counts termCounts made) the products and the order they are added in (ascending
 * term id, as cosine() adds them) are the same, and a zero weight adds nothing either way, so the
 * sums are the same to the bit. The table is kept between loads and cleared term by term, so a
 * load costs the vector's length, not the vocabulary's.
 */
export class SpreadVector {
  private table = new Float64Array(0);
  private loaded: SparseVector | null = null;
  /** The loaded vector's terms do not rise strictly: its cosines are cosine()'s own. */
  private merge = false;

  load(v: SparseVector): void {
    this.clear();
    for (let k = 1; k < v.terms.length && !this.merge; k++) if (v.terms[k]! <= v.terms[k - 1]!) this.merge = true;
    this.loaded = v;
    if (this.merge) return;
    this.cover(v);
    for (let k = 0; k < v.terms.length; k++) this.table[v.terms[k]!] = v.weights[k]!;
  }

  /** cosine(the loaded vector, b), for b whose terms rise strictly. */
  cosine(b: SparseVector): number {
    if (this.merge) return cosine(this.loaded!, b);
    // Every read stays inside the table: a typed array read past its end is a slow path in V8.
    this.cover(b);
    const table = this.table;
    let dot = 0;
    for (let k = 0; k < b.terms.length; k++) {
      const a = table[b.terms[k]!]!;
      if (a !== 0) dot += a * b.weights[k]!;
    }
    return dot;
  }

  clear(): void {
    const v = this.loaded;
    if (v && !this.merge) for (let k = 0; k < v.terms.length; k++) this.table[v.terms[k]!] = 0;
    this.loaded = null;
    this.merge = false;
  }

  /** Grows the table (keeping what it holds) to take every term of v. */
  private cover(v: SparseVector): void {
    const n = v.terms.length;
    if (n === 0 || v.terms[n - 1]! < this.table.length) return;
    const grown = new Float64Array(Math.max(v.terms[n - 1]! + 1, this.table.length * 2));
    grown.set(this.table);
    this.table = grown;
  }
}

/**
 * The k highest-weighted term ids of a vector (ties by term id), highest first. A vector's terms
 * rise by id, so of two equal weights the one met first goes first; the k kept so far are held
 * in that order and a term enters only by beating the last of them: no sort of the whole vector.
 */
export function topTerms(v: SparseVector, k: number): number[] {
  const kept: number[] = [];
  // As many as slice(0, k) of the sorted terms would give (a fraction is cut, a negative k counts from the end).
  const whole = Number.isNaN(k) ? 0 : Math.trunc(k);
  k = whole >= 0 ? Math.min(whole, v.terms.length) : Math.max(0, v.terms.length + whole);
  if (k === 0) return kept;
  for (let i = 0; i < v.terms.length; i++) {
    const w = v.weights[i]!;
    if (kept.length === k) {
      if (!(w > v.weights[kept[k - 1]!]!)) continue;
      kept.pop();
    }
    let at = kept.length;
    while (at > 0 && v.weights[kept[at - 1]!]! < w) at--;
    kept.splice(at, 0, i);
  }
  return kept.map((i) => v.terms[i]!);
}
