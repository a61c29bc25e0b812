/**
 * Fielded postings for BM25F (SPEC §5, GoS table 5): each parent's name, description, headings,
 * I/O (artifact types, contract I/O fields, script names), templates (of the contracts it invokes)
 * and body, tokenised with the same stemmer as the rest of skillc. Stored in graph.json so that a
 * query reads only the postings of its own terms.
 */
import { contentTokens } from '../text/tokens.js';
import { FIELDS, type FieldName, type Lexicon } from './types.js';

export type FieldTexts = Readonly<Record<FieldName, string>>;

export function buildLexicon(docNodes: readonly number[], texts: readonly FieldTexts[]): Lexicon {
  const lengths: number[][] = FIELDS.map(() => []);
  const byTerm = new Map<string, number[]>();
  texts.forEach((doc, d) => {
    const tf = new Map<string, number[]>();
    FIELDS.forEach((field, f) => {
      const toks = contentTokens(doc[field]);
      lengths[f]!.push(toks.length);
      for (const t of toks) {
        let row = tf.get(t);
        if (!row) tf.set(t, (row = FIELDS.map(() => 0)));
        row[f]!++;
      }
    });
    for (const [t, row] of tf) {
      let list = byTerm.get(t);
      if (!list) byTerm.set(t, (list = []));
      list.push(d, ...row);
    }
  });
  const postings: Record<string, number[]> = {};
  for (const t of [...byTerm.keys()].sort()) postings[t] = byTerm.get(t)!;
  return { docs: docNodes, lengths, postings };
}
