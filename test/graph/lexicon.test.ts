import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/calibrate/random.js';
import { buildLexiconFromCounts, indexDocuments } from '../../src/graph/lexicon.js';
import { compareCodeUnits } from '../../src/util/stable-json.js';
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

/** The distinctive terms as first written (a set and maps per document), kept as the reference for indexDocuments'. */
function referenceTerms(fields: readonly (readonly TermCounts[])[], count: number): [string, number][][] {
  const ownFields = ['name', 'description', 'body'].map((f) => FIELDS.indexOf(f as (typeof FIELDS)[number]));
  const df = new Map<string, number>();
  for (const doc of fields) {
    const held = new Set<string>();
    for (const counted of doc) counted.terms.forEach((t, k) => counted.counts[k]! > 0 && held.add(t));
    for (const t of held) df.set(t, (df.get(t) ?? 0) + 1);
  }
  return fields.map((doc) => {
    const tf = new Map<string, number>();
    let length = 0;
    for (const f of ownFields) {
      doc[f]!.terms.forEach((t, k) => {
        tf.set(t, (tf.get(t) ?? 0) + doc[f]!.counts[k]!);
        length += doc[f]!.counts[k]!;
      });
    }
    const weighted = [...tf].map(([t, n]): [string, number] => [t, roundTo((n / length) * Math.log(1 + fields.length / df.get(t)!), 4)]);
    weighted.sort((a, b) => b[1] - a[1] || compareCodeUnits(a[0], b[0]));
    return weighted.slice(0, count).filter(([, w]) => w > 0);
  });
}

const distinctiveTerms = (fields: readonly (readonly TermCounts[])[], count: number) => indexDocuments(fields.map((_, i) => i), fields, count).terms;

describe('distinctive terms (indexDocuments)', () => {
  const none: TermCounts = { terms: [], counts: [], length: 0 };

  it('gives the terms and weights of the straightforward reference, on generated libraries', () => {
    const words = ['pdf', 'csv', 'tabl', 'merg', 'split', 'page', 'chart', 'plot', 'test', 'deploy', 'skill', 'agent', 'mesh', 'pcap'];
    let compared = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const r = seededRng(seed);
      const fields = Array.from({ length: Math.floor(r() * 25) }, () => FIELDS.map(() => termCounts(Array.from({ length: Math.floor(r() * 14) }, () => words[Math.floor(r() * words.length)]).join(' '))));
      const count = 1 + Math.floor(r() * 8);
      expect(distinctiveTerms(fields, count)).toEqual(referenceTerms(fields, count));
      compared += fields.length;
    }
    expect(compared).toBeGreaterThan(2000);
    // The lexicon is the one buildLexiconFromCounts gives.
    const fields = [FIELDS.map(() => termCounts('pdf merge pdf')), FIELDS.map(() => termCounts('csv'))];
    expect(indexDocuments([0, 1], fields, 5).lexicon).toEqual(buildLexiconFromCounts([0, 1], fields));
  });

  const doc = (byField: Partial<Record<(typeof FIELDS)[number], string>>) => FIELDS.map((f) => (byField[f] === undefined ? none : termCounts(byField[f]!)));

  it("weighs a term by its share of the skill's own words and how few skills hold it", () => {
    const fields = [
      doc({ name: 'pcap', description: 'capture packets', body: 'tcpdump capture packets file' }),
      doc({ name: 'csv', description: 'merge files', body: 'merge csv files into a file' }),
      doc({ name: 'img', description: 'resize files', body: 'resize images and save each file' }),
    ];
    const [pcap] = distinctiveTerms(fields, 3);
    expect(fields[0]!.reduce((a, f) => a + f.length, 0)).toBe(7);
    // "captur" and "packet" twice each in 7 words, held by one skill of 3: 2/7 × ln(1 + 3/1).
    expect(pcap).toEqual([
      ['captur', roundTo((2 / 7) * Math.log(4), 4)],
      ['packet', roundTo((2 / 7) * Math.log(4), 4)],
      ['pcap', roundTo((1 / 7) * Math.log(4), 4)],
    ]);
    // "file", in every skill, weighs least: 1/7 × ln(1 + 3/3).
    const all = distinctiveTerms(fields, 100)[0]!;
    expect(all.at(-1)).toEqual(['file', roundTo((1 / 7) * Math.log(2), 4)]);
  });

  it('reads only what the author wrote (name, description, body), but counts a term held in any field as held', () => {
    const fields = [doc({ name: 'web', body: 'deploy service', io: 'kubernet', templates: 'helm chart' }), doc({ name: 'notes', body: 'write notes', headings: 'deploy' })];
    const [first, second] = distinctiveTerms(fields, 10);
    expect(first!.map(([t]) => t)).not.toContain('kubernet');
    expect(first!.map(([t]) => t)).not.toContain('helm');
    // "deploy" is a heading of the second skill: held by both of 2, so 1/3 × ln(1 + 2/2), not ln(1 + 2/1).
    expect(first!.find(([t]) => t === 'deploy')![1]).toBe(roundTo((1 / 3) * Math.log(2), 4));
    expect(second!.map(([t]) => t)).not.toContain('deploy');
  });

  it('keeps at most the count asked for, heaviest first, ties by term', () => {
    const fields = [doc({ body: 'zeta alpha mid mid' }), doc({ body: 'other words here' })];
    expect(distinctiveTerms(fields, 2)[0]!.map(([t]) => t)).toEqual(['mid', 'alpha']);
  });
});
