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

export function buildTfidf(texts: readonly string[]): TfidfModel {
  const termIds = new Map<string, number>();
  const docs: Map<number, number>[] = [];
  const df: number[] = [];
  for (const text of texts) {
    const tf = new Map<number, number>();
    for (const tok of contentTokens(text)) {
      let id = termIds.get(tok);
      if (id === undefined) {
        id = termIds.size;
        termIds.set(tok, id);
        df.push(0);
      }
      tf.set(id, (tf.get(id) ?? 0) + 1);
    }
    for (const id of tf.keys()) df[id]!++;
    docs.push(tf);
  }
  const n = texts.length;
  const vectors = docs.map((tf) => {
    const ids = [...tf.keys()].sort((a, b) => a - b);
    const weights = new Float64Array(ids.length);
    let norm = 0;
    ids.forEach((id, i) => {
      const w = tfidfWeight(tf.get(id)!, df[id]!, n);
      weights[i] = w;
      norm += w * w;
    });
    norm = Math.sqrt(norm) || 1;
    for (let i = 0; i < weights.length; i++) weights[i]! /= norm;
    return { terms: Uint32Array.from(ids), weights };
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
