import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/calibrate/random.js';
import { buildLexiconFromCounts } from '../../src/graph/lexicon.js';
import { FIELDS } from '../../src/graph/types.js';
import { termCounts, tfidfWeight, type TermCounts } from '../../src/propose/tfidf.js';
import { roundTo } from '../../src/util/round.js';

/** The implementation buildLexiconFromCounts replaced (a map of field rows per document), kept as the reference. */
function referenceLexicon(docNodes: readonly number[], fields: readonly (readonly TermCounts[])[]) {
  const lengths: number[][] = FIELDS.map(() => []);
  const byTerm = new Map<string, number[]>();
  fields.forEach((doc, d) => {
    const tf = new Map<string, number[]>();
    FIELDS.forEach((_, f) => {
      const counted = doc[f]!;
      lengths[f]!.push(counted.length);
      counted.terms.forEach((t, k) => {
        let row = tf.get(t);
        if (!row) tf.set(t, (row = FIELDS.map(() => 0)));
        row[f] = counted.counts[k]!;
      });
    });
    for (const [t, row] of tf) {
      let list = byTerm.get(t);
      if (!list) byTerm.set(t, (list = []));
      row.forEach((n, f) => {
        if (n > 0) list.push(d, f, n);
      });
    }
  });
  const postings: Record<string, string> = {};
  for (const t of [...byTerm.keys()].sort()) postings[t] = byTerm.get(t)!.join(' ');
  const body = FIELDS.indexOf('body');
  const sq = new Float64Array(fields.length);
  for (const triples of byTerm.values()) {
    let df = 0;
    for (let i = 0; i < triples.length; i += 3) if (triples[i + 1] === body) df++;
    for (let i = 0; i < triples.length; i += 3) if (triples[i + 1] === body) sq[triples[i]!]! += tfidfWeight(triples[i + 2]!, df, fields.length) ** 2;
  }
  return { docs: docNodes, lengths, postings, norms: Array.from(sq, (x) => roundTo(Math.sqrt(x), 6)) };
}

describe('buildLexiconFromCounts', () => {
  it('gives the postings, lengths and norms of the per-document rows it replaced, on generated libraries', () => {
    const words = ['pdf', 'csv', 'table', 'merge', 'split', 'page', 'chart', 'plot', 'test', 'deploy', 'skill', 'agent'];
    for (let seed = 1; seed <= 300; seed++) {
      const r = seededRng(seed);
      const fields = Array.from({ length: Math.floor(r() * 25) }, () =>
        FIELDS.map((): TermCounts => {
          if (r() < 0.1) {
            // Counts no termCounts makes: a term listed twice in one field, zero and fractional counts.
            const terms = Array.from({ length: 1 + Math.floor(r() * 4) }, () => words[Math.floor(r() * 4)]!);
            const counts = terms.map(() => [0, 1, 2, 3, 0.5][Math.floor(r() * 5)]!);
            return { terms, counts, length: counts.reduce((a, b) => a + b, 0) };
          }
          return termCounts(Array.from({ length: Math.floor(r() * 12) }, () => words[Math.floor(r() * words.length)]).join(' '));
        }),
      );
      const nodes = fields.map((_, i) => i * 2);
      expect(buildLexiconFromCounts(nodes, fields)).toEqual(referenceLexicon(nodes, fields));
    }
  });

  it('lists a term by document, then field, each field once with the last count given for it', () => {
    const none: TermCounts = { terms: [], counts: [], length: 0 };
    const doc = (byField: Partial<Record<(typeof FIELDS)[number], TermCounts>>) => FIELDS.map((f) => byField[f] ?? none);
    const lex = buildLexiconFromCounts([0, 1], [
      doc({ name: termCounts('pdf'), body: { terms: ['pdf', 'csv', 'pdf'], counts: [2, 1, 5], length: 8 } }),
      doc({ description: termCounts('pdf pdf'), headings: { terms: ['csv', 'csv'], counts: [3, 0], length: 3 } }),
    ]);
    expect(lex.postings['pdf']).toBe(`0 ${FIELDS.indexOf('name')} 1 0 ${FIELDS.indexOf('body')} 5 1 ${FIELDS.indexOf('description')} 2`);
    expect(lex.postings['csv']).toBe(`0 ${FIELDS.indexOf('body')} 1`);
  });
});
