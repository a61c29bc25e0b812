/**
 * TF-IDF unit vectors over stemmed content tokens (the default embedding; SPEC §2 pass 2).
 * Vectors are sparse, sorted by term id and L2-normalised, so cosine is a merge of two arrays.
 */
import { contentTokens } from '../text/tokens.js';

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
  const at = new Map<string, number>();
  const terms: string[] = [];
  const counts: number[] = [];
  let length = 0;
  for (const tok of contentTokens(text)) {
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
    // A content token is a stem of ASCII letters (tokens.ts): anything else would be written into
    // the query index's postings as it is.
    if (typeof t !== 'string' || !/^[a-z]+$/.test(t) || typeof c !== 'number' || !Number.isInteger(c) || c < 1) return false;
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
  const ids = docs.map((doc) =>
    doc.terms.map((tok) => {
      let id = termIds.get(tok);
      if (id === undefined) {
        id = termIds.size;
        termIds.set(tok, id);
        df.push(0);
      }
      df[id]!++;
      return id;
    }),
  );
  const n = docs.length;
  const vectors = docs.map((doc, d) => {
    const order = ids[d]!.map((_, k) => k).sort((a, b) => ids[d]![a]! - ids[d]![b]!);
    const weights = new Float64Array(order.length);
    let norm = 0;
    order.forEach((k, i) => {
      const w = tfidfWeight(doc.counts[k]!, df[ids[d]![k]!]!, n);
      weights[i] = w;
      norm += w * w;
    });
    norm = Math.sqrt(norm) || 1;
    for (let i = 0; i < weights.length; i++) weights[i]! /= norm;
    return { terms: Uint32Array.from(order, (k) => ids[d]![k]!), weights };
  });
  const vocabulary = new Array<string>(termIds.size);
  for (const [t, id] of termIds) vocabulary[id] = t;
  return { vectors, vocabulary };
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

/** The k highest-weighted term ids of a vector (ties by term id). */
export function topTerms(v: SparseVector, k: number): number[] {
  const idx = [...v.terms.keys()].sort((p, q) => v.weights[q]! - v.weights[p]! || v.terms[p]! - v.terms[q]!);
  return idx.slice(0, k).map((i) => v.terms[i]!);
}
