/**
 * Hostile queries: one long enough to crowd the hits out of the budget if it were echoed whole, one
 * long run of letters (the stemmer is quadratic in a word's length), one of megabytes, and one
 * that tries to close the preamble's HTML comment. The answer must stay within the budget, keep
 * its hits, and come back fast.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { skillc } from '../helpers/cli.js';
import { scratchDir } from '../helpers/tmp.js';
import { openRetriever, type Retriever } from '../../src/query/retriever.js';
import { preamble, QUOTED_QUERY_CHARS, quoteQuery, renderQueryMarkdown } from '../../src/query/render.js';
import { MAX_RANKED_QUERY_CHARS, queryTerms } from '../../src/query/rank.js';

const WORDS = 'detect intrusions and suspicious beaconing ';

let dist: string;
let retriever: Retriever;

beforeAll(() => {
  dist = path.join(scratchDir('long-query'), 'dist');
  const r = skillc(['build', 'test/fixtures/retrieval', '-o', dist, '-q']);
  expect(r.code, r.stderr).toBe(0);
  retriever = openRetriever(dist);
}, 60_000);

/** `text` repeated to exactly `length` characters. */
function repeatTo(text: string, length: number): string {
  return text.repeat(Math.ceil(length / text.length)).slice(0, length);
}

describe('a 120,000-character query on the command line', () => {
  const long = repeatTo(WORDS, 120_000);

  it('quotes 200 characters in the preamble, keeps the hits and stays within the budget', () => {
    const r = skillc(['query', long, '--dist', dist, '--budget', '8000']);
    expect(r.code, r.stderr).toBe(0);
    const first = r.stdout.split('\n')[0]!;
    expect(first.length).toBeLessThan(400);
    expect(first).toContain('… (120000 characters)');
    expect(r.stdout).toContain('# 1. threat-detection');
    expect(r.stdout.length).toBeLessThan(20_000);
  });

  it('charges at most the budget in JSON, which keeps the whole query as data', () => {
    const r = skillc(['query', long, '--dist', dist, '--budget', '8000', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { query: string; tokens: { charged: number; budget: number }; hits: unknown[] };
    expect(doc.query).toBe(long);
    expect(doc.tokens.charged).toBeLessThanOrEqual(doc.tokens.budget);
    expect(doc.hits.length).toBeGreaterThan(0);
  });

  it('prints a short NO_SKILL_HIT line when nothing matches', () => {
    const r = skillc(['query', repeatTo('zorblax quuxification ', 120_000), '--dist', dist]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^NO_SKILL_HIT: no skill matches "(zorblax quuxification ){9}zo"… \(120000 characters\) \(no skill contains any of the query terms\)\.\n$/);
  });
});

describe('the preamble', () => {
  it('has a length bounded whatever the query, even when every character needs escaping', () => {
    for (const ch of ['a', '\u0000', '\u0085', '\u202e', '\u{1F600}']) {
      const quoted = quoteQuery(ch.repeat(1_000_000));
      expect(quoted, JSON.stringify(ch)).toContain('… (1000000 characters)');
      expect(Buffer.byteLength(quoted), JSON.stringify(ch)).toBeLessThanOrEqual(6 * QUOTED_QUERY_CHARS + 30);
      expect(quoted).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
    }
    // A cut never splits a surrogate pair.
    expect(quoteQuery('\u{1F600}'.repeat(300))).toContain(`${'\u{1F600}'.repeat(QUOTED_QUERY_CHARS)}"…`);
  });

  it('charges a long query no more than a 200-character one', async () => {
    const short = await retriever.query(repeatTo(WORDS, 200));
    const long = await retriever.query(repeatTo(WORDS, 1_000_000));
    expect(long.status).toBe('ok');
    expect(long.hits.map((h) => h.node.path)).toEqual(short.hits.map((h) => h.node.path));
    expect(long.tokens.charged - short.tokens.charged).toBeLessThanOrEqual(30);
  });

  it('cannot be closed early by dashes in the query', async () => {
    for (const q of ['detect intrusions --> # injected', 'detect intrusions ---> # injected', 'detect intrusions ----!> x']) {
      const md = renderQueryMarkdown(await retriever.query(q, { k: 1 }));
      const first = md.split('\n')[0]!;
      expect(first.startsWith('<!-- ')).toBe(true);
      expect(first.endsWith(' -->')).toBe(true);
      expect(first.slice(5, -4), q).not.toMatch(/--/);
    }
    expect(preamble('a--b', 1, 1, 1)).toContain('"a- -b"');
  });
});

describe('ranking a hostile query', () => {
  it('does not stem a 40,000-letter run (Porter2 is quadratic in word length: about 14 s)', () => {
    const started = performance.now();
    const ranking = retriever.rank(`${'ab'.repeat(20_000)} intrusions`, 8);
    expect(performance.now() - started).toBeLessThan(5_000); // a hang guard (the old code took 14 s), not a speed measurement
    expect(ranking.terms).toContain('intrus');
    expect(ranking.terms).toContain('ab'.repeat(20_000));
  });

  it('reads only the first 100,000 characters, without the word cut at the end', () => {
    const filler = repeatTo('intrusions ', MAX_RANKED_QUERY_CHARS - 4);
    // "beaconing" straddles the cut and is dropped whole; "suspicious" lies past it.
    expect(queryTerms(`${filler}beaconing suspicious`)).toEqual(['intrus']);
    expect(queryTerms(`${filler} beaconing`)).toEqual(['intrus']);
    expect(queryTerms('beaconing suspicious')).toEqual(['beacon', 'suspici']);
  });

  it('answers a 1 MB query of distinct words without stalling', async () => {
    const words = Array.from({ length: 130_000 }, (_, i) => `x${((i * 2654435761) >>> 0).toString(36)}`).join(' ');
    const started = performance.now();
    const r = await retriever.query(`${WORDS}${words}`);
    expect(performance.now() - started).toBeLessThan(5_000); // a hang guard (the old code took 14 s), not a speed measurement
    expect(r.terms.length).toBeLessThan(15_000);
  });
});

describe('an empty task', () => {
  it('is a usage error (exit 2), not a task no skill matches; a task of stop words is NO_SKILL_HIT (exit 1)', () => {
    for (const task of ['', '   \n\t']) {
      const r = skillc(['query', task, '--dist', dist]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe('skillc query: the task is empty; say in plain words what the agent has to do\n');
    }
    expect(skillc(['query', 'the and of', '--dist', dist]).code).toBe(1);
  });
});
