/**
 * Fielded postings for BM25F (SPEC §5, GoS table 5): each parent's name, description, headings,
 * I/O (artifact types, contract I/O fields, script names), templates (of the contracts it invokes)
 * and body, tokenised with the same stemmer as the rest of skillc. Stored in graph.json so that a
 * query reads only the postings of its own terms.
 */
import { termCounts, tfidfWeight, type TermCounts } from '../propose/tfidf.js';
import { roundTo } from '../util/round.js';
import { FIELDS, type FieldName, type Lexicon } from './types.js';

const BODY = FIELDS.indexOf('body');

export type FieldTexts = Readonly<Record<FieldName, string>>;

export function buildLexicon(docNodes: readonly number[], texts: readonly FieldTexts[]): Lexicon {
  return buildLexiconFromCounts(
    docNodes,
    texts.map((doc) => FIELDS.map((field) => termCounts(doc[field]))),
  );
}

/** buildLexicon over field texts already counted: per document, one TermCounts per field of FIELDS. */
export function buildLexiconFromCounts(docNodes: readonly number[], fields: readonly (readonly TermCounts[])[]): Lexicon {
  const lengths: number[][] = FIELDS.map(() => []);
  // Each term's "doc field tf" triples, by document and then field: the documents are read in
  // order and each one's fields in order, so every list is appended to in that order already.
  // Terms enter the map where they are first met, which bodyNorms' sums follow.
  const byTerm = new Map<string, number[]>();
  for (let d = 0; d < fields.length; d++) {
    const doc = fields[d]!;
    for (let f = 0; f < FIELDS.length; f++) {
      const counted = doc[f]!;
      lengths[f]!.push(counted.length);
      for (let k = 0; k < counted.terms.length; k++) {
        const t = counted.terms[k]!;
        const n = counted.counts[k]!;
        let list = byTerm.get(t);
        if (!list) byTerm.set(t, (list = []));
        // A term listed twice in one field counts as its last entry says (none if that is not positive).
        const last = list.length - 3;
        const again = last >= 0 && list[last] === d && list[last + 1] === f;
        if (again && n > 0) list[last + 2] = n;
        else if (again) list.length = last;
        else if (n > 0) list.push(d, f, n);
      }
    }
  }
  const postings: Record<string, string> = {};
  for (const t of [...byTerm.keys()].sort()) postings[t] = encodePostings(byTerm.get(t)!);
  return { docs: docNodes, lengths, postings, norms: bodyNorms(fields.length, byTerm) };
}

/**
 * A term's postings as one string of "doc field tf" triples (sorted by doc, then field): JSON
 * parses a string far faster than an array of numbers, and a query decodes only its own terms.
 */
export function encodePostings(triples: readonly number[]): string {
  return triples.join(' ');
}

/** The triples of `encoded`, or undefined when it holds anything but whole numbers below 10^9. */
export function decodePostings(encoded: string): Int32Array | undefined {
  const parts = encoded.split(' ');
  const out = new Int32Array(parts.length);
  for (let i = 0; i < parts.length; i++) {
    // Number('') is 0 and Number('1.9') truncates in an Int32Array: a damaged list must not read as another.
    if (!/^\d{1,9}$/.test(parts[i]!)) return undefined;
    out[i] = Number(parts[i]);
  }
  return out;
}

/** Per document, the L2 norm of its body's TF-IDF vector (propose's weighting), for the vector seed score. */
function bodyNorms(nDocs: number, byTerm: ReadonlyMap<string, readonly number[]>): number[] {
  const sq = new Float64Array(nDocs);
  for (const triples of byTerm.values()) {
    let df = 0;
    for (let i = 0; i < triples.length; i += 3) if (triples[i + 1] === BODY) df++;
    for (let i = 0; i < triples.length; i += 3) if (triples[i + 1] === BODY) sq[triples[i]!]! += tfidfWeight(triples[i + 2]!, df, nDocs) ** 2;
  }
  return Array.from(sq, (x) => roundTo(Math.sqrt(x), 6));
}
