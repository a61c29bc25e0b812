/**
 * Fielded postings for BM25F (SPEC §5, GoS table 5): each parent's name, description, headings,
 * I/O (artifact types, contract I/O fields, script names), templates (of the contracts it invokes)
 * and body, tokenised with the same stemmer as the rest of skillc. Stored in graph.json so that a
 * query reads only the postings of its own terms.
 */
import { indexTermCounts, tfidfWeight, type TermCounts } from '../propose/tfidf.js';
import { roundTo } from '../util/round.js';
import { FIELDS, type FieldName, type Lexicon } from './types.js';

const BODY = FIELDS.indexOf('body');

export type FieldTexts = Readonly<Record<FieldName, string>>;

export function buildLexicon(docNodes: readonly number[], texts: readonly FieldTexts[]): Lexicon {
  return buildLexiconFromCounts(
    docNodes,
    texts.map((doc) => FIELDS.map((field) => indexTermCounts(doc[field]))),
  );
}

/** buildLexicon over field texts already counted: per document, one TermCounts per field of FIELDS. */
export function buildLexiconFromCounts(docNodes: readonly number[], fields: readonly (readonly TermCounts[])[]): Lexicon {
  return indexDocuments(docNodes, fields, 0).lexicon;
}

/**
 * The lexicon, and per document its `count` most distinctive terms (ParentNode.terms): by
 * tf/length × ln(1 + N/df) over its own fields (OWN_FIELDS), df counting the documents that hold
 * the term in any field, as the ranking's IDF does. The words that say what a skill is about, not
 * the words every skill uses. Weights are rounded before they are ordered, ties going to the term
 * that sorts first, so the lists are the same on every machine. Both come from one pass over the
 * postings, which already group each term's counts by document.
 */
export function indexDocuments(docNodes: readonly number[], fields: readonly (readonly TermCounts[])[], count: number): { lexicon: Lexicon; terms: [string, number][][] } {
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
  const sorted = [...byTerm.keys()].sort();
  for (const t of sorted) postings[t] = encodePostings(byTerm.get(t)!);
  const lexicon = { docs: docNodes, lengths, postings, norms: bodyNorms(fields.length, byTerm) };
  return { lexicon, terms: count > 0 ? heaviestTerms(fields.length, sorted, byTerm, count) : [] };
}

/** indexDocuments' terms: per document, (term index into `sorted`, own tf) in term order, then weighed and cut. */
function heaviestTerms(nDocs: number, sorted: readonly string[], byTerm: ReadonlyMap<string, readonly number[]>, count: number): [string, number][][] {
  const own = new Uint8Array(FIELDS.length);
  for (const f of OWN_FIELDS) own[f] = 1;
  const held: number[][] = Array.from({ length: nDocs }, () => []);
  const idf = new Float64Array(sorted.length);
  for (let t = 0; t < sorted.length; t++) {
    const triples = byTerm.get(sorted[t]!)!;
    let df = 0;
    for (let i = 0; i < triples.length; ) {
      const d = triples[i]!;
      let tf = 0;
      for (; i < triples.length && triples[i] === d; i += 3) if (own[triples[i + 1]!]) tf += triples[i + 2]!;
      df++;
      if (tf > 0) held[d]!.push(t, tf);
    }
    idf[t] = Math.log(1 + nDocs / df);
  }
  return held.map((pairs) => {
    let length = 0;
    for (let i = 1; i < pairs.length; i += 2) length += pairs[i]!;
    const order: number[] = [];
    const weight = new Float64Array(pairs.length / 2);
    for (let j = 0; j < weight.length; j++) {
      weight[j] = roundTo((pairs[2 * j + 1]! / length) * idf[pairs[2 * j]!]!, 4);
      order.push(j);
    }
    // Pairs are in term order, so the lower index is the term that sorts first.
    order.sort((a, b) => weight[b]! - weight[a]! || a - b);
    const out: [string, number][] = [];
    for (const j of order) {
      if (out.length === count || !(weight[j]! > 0)) break;
      out.push([sorted[pairs[2 * j]!]!, weight[j]!]);
    }
    return out;
  });
}

/** How many distinctive terms each skill node keeps (ParentNode.terms) for pseudo-relevance feedback. */
export const DISTINCTIVE_TERMS = 32;
/** The fields a skill's distinctive terms come from: what its author wrote (the headings are in the body; I/O and templates are derived). */
const OWN_FIELDS = (['name', 'description', 'body'] as const).map((f) => FIELDS.indexOf(f));

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
