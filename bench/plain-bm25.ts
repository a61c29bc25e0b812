/**
 * The retrieval baseline of issue 7 and issue 21: Okapi BM25 (k1 1.2, b 0.75) over each skill's raw
 * SKILL.md text as one field, the build's tokenizer, no graph and no query-term weighting.
 */
import { indexTokens } from '../src/text/tokens.js';

/** Okapi BM25 over one text per skill. */
export function plainBm25(docs: readonly { path: string; text: string }[]): (q: string, k: number) => string[] {
  const postings = new Map<string, [number, number][]>();
  const lengths = docs.map((d, i) => {
    const toks = indexTokens(d.text);
    const tf = new Map<string, number>();
    for (const t of toks) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, n] of tf) {
      let list = postings.get(t);
      if (!list) postings.set(t, (list = []));
      list.push([i, n]);
    }
    return toks.length;
  });
  const avg = lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length);
  return (q, k) => {
    const score = new Float64Array(docs.length);
    for (const t of new Set(indexTokens(q))) {
      const list = postings.get(t) ?? [];
      const idf = Math.log(1 + (docs.length - list.length + 0.5) / (list.length + 0.5));
      for (const [d, n] of list) score[d]! += (idf * n * 2.2) / (n + 1.2 * (0.25 + (0.75 * lengths[d]!) / avg));
    }
    return [...score.keys()]
      .filter((d) => score[d]! > 0)
      .sort((a, b) => score[b]! - score[a]! || (docs[a]!.path < docs[b]!.path ? -1 : 1))
      .slice(0, k)
      .map((d) => docs[d]!.path);
  };
}
