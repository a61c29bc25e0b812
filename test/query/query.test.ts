/**
 * skillc query end to end on two built fixture libraries: test/fixtures/retrieval (a producer and
 * a consumer of a PCAP, a workflow pair, distractors) and test/fixtures/cli-automation (parents
 * rewritten to invoke contracts). Each property the issue names is asserted on real output.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildQueryFixtures, ROOT, skillc } from '../helpers/cli.js';
import { noHitReason, openRetriever, type Retriever } from '../../src/query/retriever.js';
import { indexOf, readGraphDocument } from '../../src/query/graph-index.js';
import { rank } from '../../src/query/rank.js';
import { renderQueryJson, renderQueryMarkdown } from '../../src/query/render.js';
import { hydrateListing } from '../../src/query/hydrate.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { validateAgainst } from '../../src/schema/validate.js';
import type { GraphDocument } from '../../src/graph/types.js';

let retrievalDist: string;
let cliDist: string;
let retrieval: Retriever;
let cli: Retriever;

beforeAll(() => {
  ({ retrievalDist, cliDist } = buildQueryFixtures('query'));
  retrieval = openRetriever(retrievalDist);
  cli = openRetriever(cliDist);
}, 60_000);

const INTRUSION = 'detect intrusions and suspicious beaconing';

describe('graph.json', () => {
  it('validates against its schema and keeps the dep edge direction with its evidence', () => {
    const doc = JSON.parse(fs.readFileSync(path.join(retrievalDist, 'graph.json'), 'utf8')) as GraphDocument;
    expect(validateAgainst('graph', doc).errors).toEqual([]);
    const dep = doc.edges.filter((e) => e.type === 'dep');
    expect(dep.map((e) => [e.from, e.to])).toEqual([['skill:pcap-capture', 'skill:threat-detection']]);
    expect(dep[0]!.evidence.map((e) => e.detail)).toEqual(['outputs pcap', 'takes pcap as input']);
  });

  it('has contract nodes only for promoted contracts, each reached by invokes edges from its parents', () => {
    const doc = JSON.parse(fs.readFileSync(path.join(cliDist, 'graph.json'), 'utf8')) as GraphDocument;
    const contracts = doc.nodes.filter((n) => n.kind === 'contract');
    expect(contracts.length).toBeGreaterThan(0);
    for (const c of contracts) {
      const edges = doc.edges.filter((e) => e.to === c.id);
      expect(edges.length, c.id).toBeGreaterThan(0);
      expect(edges.every((e) => e.type === 'invokes' && e.from.startsWith('skill:') && e.evidence[0]!.kind === 'call-site')).toBe(true);
    }
  });
});

describe('retrieval', () => {
  it('retrieves a prerequisite reached only through a reverse dep edge', () => {
    const hits = retrieval.rank(INTRUSION, 8).hits;
    expect(hits[0]!.node.path).toBe('threat-detection');
    const prerequisite = hits.find((h) => h.node.path === 'pcap-capture');
    expect(prerequisite, 'pcap-capture retrieved').toBeDefined();
    // No query word occurs in it: only the graph brought it in, along dep, backwards.
    expect(prerequisite!.scores.lexical).toBe(0);
    expect(prerequisite!.scores.seed).toBe(0);
    expect(prerequisite!.via).toEqual({ type: 'dep', reverse: true, from: 'skill:threat-detection' });
  });

  it('loses that prerequisite when dep edges may not be walked backwards', () => {
    const doc = readGraphDocument(retrievalDist);
    const forwardOnly = indexOf(retrievalDist, { ...doc, parameters: { ...doc.parameters, ppr: { ...doc.parameters.ppr, reverseWeights: { ...doc.parameters.ppr.reverseWeights, dep: 0 } } } });
    expect(rank(forwardOnly, INTRUSION, 8).hits.map((h) => h.node.path)).not.toContain('pcap-capture');
  });

  it('never returns a contract as a top-level hit', () => {
    const doc = readGraphDocument(cliDist);
    const contractTexts = doc.nodes.flatMap((n) => (n.kind === 'contract' ? [n.trigger, ...n.templates, n.id.replace(/^contract:/, '').replace(/-/g, ' ')] : []));
    expect(contractTexts.length).toBeGreaterThan(3);
    for (const q of contractTexts) {
      for (const h of cli.rank(q, 20).hits) {
        expect(h.node.kind, q).toBe('parent');
        expect(h.node.id.startsWith('skill:'), q).toBe(true);
      }
    }
  });

  it('says NO_SKILL_HIT for an empty, a stop-word-only or a nonsense query', async () => {
    for (const q of ['', 'the and of it', 'xyzzy plugh frobnicate']) {
      const r = await cli.query(q);
      expect(r.status, q).toBe('NO_SKILL_HIT');
      expect(r.hits).toEqual([]);
      expect(renderQueryMarkdown(r)).toMatch(/^NO_SKILL_HIT: /);
    }
  });

  it('lets terms no skill holds count neither for nor against a match, and reports them', async () => {
    const r = await retrieval.query('resize zorblax quuxification flibbertigibbet wombatry');
    expect(r.unknownTerms).toEqual(['flibbertigibbet', 'quuxif', 'wombatri', 'zorblax']);
    expect(r.coverage).toBe(1);
    expect(r.hits[0]!.node.path).toBe('image-resize');
    const none = await retrieval.query('zorblax quuxification flibbertigibbet wombatry');
    expect(none.status).toBe('NO_SKILL_HIT');
    expect(none.reason).toBe('no skill contains any of the query terms');
  });

  it('says NO_SKILL_HIT when the best match covers too little of the weight the library holds', async () => {
    // Words of four different skills: the best one holds under half of their weight.
    const spread = 'resize capture beaconing changelog interface tcpdump notes release';
    const ranking = retrieval.rank(spread, 8);
    expect(ranking.unknownTerms).toEqual([]);
    expect(ranking.coverage).toBeGreaterThan(0.2);
    expect(ranking.coverage).toBeLessThan(0.5);
    const doc = readGraphDocument(retrievalDist);
    const strict = indexOf(retrievalDist, { ...doc, parameters: { ...doc.parameters, minCoverage: 0.5 } });
    const none = rank(strict, spread, 8);
    expect(none.hits).toEqual([]);
    expect(noHitReason(strict, none)).toBe(`the best match covers ${Math.round(none.coverage * 100)}% of the weight of the query terms the library holds; at least 50% is needed`);
  });

  it('drops words of one letter repeated (xxxx, yyyy): placeholders, not what a task asks for', async () => {
    const r = await cli.query('zzzz yyyy xxxx');
    expect(r.terms).toEqual([]);
    expect(r.status).toBe('NO_SKILL_HIT');
    expect(r.reason).toBe('the query has no content words');
  });

  it('answers a long task instruction full of file names: terms no skill holds do not lower the bar', async () => {
    // 120 words; a dozen of them (paths, ids, numbers) occur in no skill.
    const instruction = `A capture of last night's traffic from the office gateway is in /root/data/gw-2024-11-03.pcap.
      Detect intrusions in it: port scans, hosts that contact more than 100 ports in a minute, and suspicious
      beaconing to one address at a fixed interval. Ignore the monitoring host 10.0.4.17 (prometheus-nodeexp).
      Write every finding to /root/output/findings.json as a list of objects with the fields src, dst,
      first_seen, kind and evidence, sorted by first_seen. The tests replay gw-2024-11-03.pcap against a
      hidden ground truth (qzx-labels-v2) and check precision and recall; at least 0.9 of each is required.
      Do not modify /root/data; use only the tools installed in the container (tshark, zeek-lite, jq).`;
    const r = await retrieval.query(instruction);
    expect(r.unknownTerms.length).toBeGreaterThan(5);
    expect(r.status).toBe('ok');
    expect(r.hits[0]!.node.path).toBe('threat-detection');
  });

  it('weighs a term the task repeats more (query term frequency, BM25 k3)', () => {
    const first = (q: string) => retrieval.rank(q, 8).hits[0]!.node.path;
    expect(first('resize images and write a csv report')).toBe(first('resize images and write a csv report'));
    expect(first('csv report csv csv of the image sizes')).toBe('csv-report');
    expect(first('resize resize resize the image for the csv report')).toBe('image-resize');
  });
});

describe('pseudo-relevance feedback', () => {
  // 'imag' is image-resize's word and the rest threat-detection's: no one skill covers the query.
  const MIXED = 'detect intrusions and suspicious beaconing seen by a camera in images';

  it('adds the distinctive terms of the best hits to a query no skill covers whole', () => {
    const ranking = rank(retrieval.index, MIXED, 8);
    expect(ranking.coverage).toBeLessThan(retrieval.index.parameters.feedback.maxCoverage);
    expect(ranking.feedback.length).toBe(retrieval.index.parameters.feedback.terms);
    const best = rank(retrieval.index, MIXED, retrieval.index.parameters.feedback.docs, { feedback: false }).hits;
    const theirs = new Set(best.flatMap((h) => h.node.terms.map(([t]) => t)));
    for (const t of ranking.feedback) expect(theirs.has(t), t).toBe(true);
    // NO_SKILL_HIT and coverage are the query's own: the same with feedback and without.
    expect(rank(retrieval.index, MIXED, 8, { feedback: false }).coverage).toBe(ranking.coverage);
  });

  it("brings in a skill that shares the best hit's words and none of the query's", () => {
    // threat-detection's distinctive terms say "tcpdump", pcap-capture's word; without edges
    // nothing else links the two, so pcap-capture ranks only by way of feedback.
    const doc = readGraphDocument(retrievalDist);
    const nodes = doc.nodes.map((n) => (n.kind === 'parent' && n.path === 'threat-detection' ? { ...n, terms: [['tcpdump', 1] as const] } : n));
    const index = indexOf(retrievalDist, { ...doc, nodes, edges: [], parameters: { ...doc.parameters, feedback: { ...doc.parameters.feedback, weight: 1 } } });
    expect(rank(index, MIXED, 8, { feedback: false }).hits.map((h) => h.node.path)).not.toContain('pcap-capture');
    const ranking = rank(index, MIXED, 8);
    expect(ranking.feedback[0]).toBe('tcpdump');
    expect(ranking.hits.map((h) => h.node.path)).toContain('pcap-capture');
  });

  it('leaves a query one skill covers whole to its own terms, and a nonsense query to NO_SKILL_HIT', () => {
    const own = rank(retrieval.index, INTRUSION, 8);
    expect(own.coverage).toBe(1);
    expect(own.feedback).toEqual([]);
    expect(own.hits).toEqual(rank(retrieval.index, INTRUSION, 8, { feedback: false }).hits);
    const none = rank(retrieval.index, 'blorft snazzle wibble quorp', 8);
    expect(none.hits).toEqual([]);
    expect(none.feedback).toEqual([]);
  });
});

describe('bundles', () => {
  it('returns a rewritten parent as the skill as written: every line, not the skeleton', async () => {
    const r = await cli.query('download a public dataset and verify its checksum', { k: 1, budget: 4000 });
    expect(r.status).toBe('ok');
    const hit = r.hits[0]!;
    expect(hit.node.path).toBe('download-dataset');
    expect(hit.hydration).toBe('full');
    expect(hit.node.invokes).toEqual(['git-clone-url']);
    expect(hit.text).toContain(fs.readFileSync(path.join(ROOT, 'test/fixtures/cli-automation/download-dataset/SKILL.md'), 'utf8'));
    expect(hit.text).not.toContain('invoke(git-clone-url');
  });

  it('returns a parent that was not rewritten as its SKILL.md', async () => {
    const r = await retrieval.query(INTRUSION, { k: 1 });
    expect(r.hits[0]!.text).toContain(fs.readFileSync(path.join(retrievalDist, 'skills/threat-detection/SKILL.md'), 'utf8'));
  });
});

describe('token budget', () => {
  it('keeps the whole answer within the budget, counted with the BPE tokenizer', async () => {
    // gpt-tokenizer's own count: independent of skillc's counter (src/text/o200k.ts).
    const count = (text: string) => countTokens(text);
    const seen = new Set<string>();
    for (const budget of [200, 300, 600, 1200, 2500, 8000]) {
      const r = await cli.query('install packages and download data with curl', { k: 8, budget });
      const md = renderQueryMarkdown(r);
      expect(count(md), `budget ${budget}`).toBeLessThanOrEqual(budget);
      expect(r.tokens.charged).toBeLessThanOrEqual(budget);
      expect(count(md)).toBeLessThanOrEqual(r.tokens.charged);
      for (const h of r.hits) seen.add(h.hydration);
    }
    // The sweep exercised every way a hit can be hydrated.
    expect([...seen].sort()).toEqual(['full', 'listed', 'truncated']);
  });

  it('cuts an over-long first hit at a line boundary and says where the rest is', async () => {
    const r = await cli.query('download a public dataset and verify its checksum', { k: 1, budget: 300 });
    const hit = r.hits[0]!;
    expect(hit.hydration).toBe('truncated');
    expect(hit.text).toMatch(/\[skillc: truncated after \d+ of \d+ lines to fit the budget; the rest is in `bundles\/download-dataset\.md`\]/);
  });
});

describe('library function', () => {
  it('answers many queries from one loaded index, the same as a fresh one', async () => {
    const again = openRetriever(cliDist);
    for (const q of ['clone a repository', 'lint and format code', 'back up a database']) {
      expect(renderQueryJson(await cli.query(q))).toBe(renderQueryJson(await again.query(q)));
    }
  });

  it('lists every hit it ranks, even when only some fit the budget (issue 21 item 3)', async () => {
    // From 600 tokens up the listing of all 8 fits (its bound is its UTF-8 bytes); below, as many as fit.
    for (const budget of [600, 1200, 2500]) {
      const ranked = cli.rank('install packages and download data with curl', 8);
      const r = await cli.query('install packages and download data with curl', { k: 8, budget });
      expect(r.hits.map((h) => h.node.path), `budget ${budget}`).toEqual(ranked.hits.map((h) => h.node.path));
      expect(r.tokens.charged).toBeLessThanOrEqual(budget);
      // A listed hit is its path and one line: the first sentence of its description.
      for (const h of r.hits.filter((x) => x.hydration === 'listed')) {
        expect(h.text).toBe(`- ${h.rank}. ${h.node.name}: \`${h.node.bundle}\` (${h.node.tokens} tokens, over the budget): ${h.node.description.split(/(?<=[.!?])\s/)[0]}\n`);
      }
    }
    expect((await cli.query('install packages and download data with curl', { k: 8, budget: 600 })).hits.some((h) => h.hydration === 'listed')).toBe(true);
  });

  it('below that, lists every hit by its file, or the first ones and how many more there are', async () => {
    const q = 'install packages and download data with curl';
    const ranked = cli.rank(q, 16).hits.map((h) => h.node.path);
    const count = countTokens;
    let sawShort = false;
    let sawUnlisted = false;
    for (const budget of [200, 250, 300, 400, 500]) {
      const r = await cli.query(q, { k: 16, budget });
      const md = renderQueryMarkdown(r);
      expect(count(md), `budget ${budget}`).toBeLessThanOrEqual(budget);
      expect(r.tokens.charged).toBeLessThanOrEqual(budget);
      // The hits in the answer are the first ranked ones, and with those the answer names the rest.
      expect(r.hits.map((h) => h.node.path)).toEqual(ranked.slice(0, r.hits.length));
      expect(r.hits.length + (r.unlisted ?? 0), `budget ${budget}`).toBe(ranked.length);
      if (r.unlisted) {
        sawUnlisted = true;
        expect(md).toContain(`- … and ${r.unlisted} more hit${r.unlisted === 1 ? '' : 's'} from rank ${r.hits.length + 1} on, not listed: raise the budget`);
      }
      for (const h of r.hits.filter((x) => x.hydration === 'listed' && !x.text.includes('tokens, over the budget'))) {
        sawShort = true;
        expect(h.text).toBe(`- ${h.rank}. \`${h.node.bundle}\`\n`);
      }
    }
    expect(sawShort).toBe(true);
    // The answer's budget is at least 200 tokens; hydration under a smaller share of it lists the first hits and counts the rest.
    if (!sawUnlisted) {
      const hits = cli.rank(q, 16).hits;
      const r = await hydrateListing(cliDist, hits, 60);
      expect(r.unlisted).toBeGreaterThan(0);
      expect(r.hits.length + r.unlisted).toBe(hits.length);
      expect(r.hits.reduce((a, h) => a + h.cost, 0) + r.unlistedCost).toBeLessThanOrEqual(60);
      expect(r.hits.every((h) => h.text === `- ${h.rank}. \`${h.node.bundle}\`\n`)).toBe(true);
    }
  });

  it('stays within the budget when long unknown words fill the preamble', async () => {
    const junk = Array.from({ length: 12 }, (_, i) => `q${String.fromCharCode(98 + i)}vgwvvwgvqggqvgwvvwgvqggqvgwkfjhffhjfkj`).join(' ');
    for (const budget of [200, 230, 260, 400]) {
      const r = await cli.query(`${junk} install packages with curl`, { k: 16, budget });
      expect(countTokens(renderQueryMarkdown(r)), `budget ${budget}`).toBeLessThanOrEqual(budget);
      expect(r.tokens.charged).toBeLessThanOrEqual(budget);
    }
  });

  it('cuts only the hit that has the budget first, and never down to its frontmatter', async () => {
    for (const budget of [200, 300, 400, 600, 800, 1000, 1200]) {
      const r = await cli.query('install packages and download data with curl', { k: 8, budget });
      const cut = r.hits.filter((h) => h.hydration === 'truncated');
      expect(cut.length, `budget ${budget}`).toBeLessThanOrEqual(1);
      if (cut.length === 1) {
        expect(cut[0]!.rank).toBe(1);
        const kept = /truncated after (\d+) of/.exec(cut[0]!.text)!;
        expect(Number(kept[1])).toBeGreaterThan(4);
      }
      // A hit shown in full may follow a listed one; a cut one never does.
      const firstShown = r.hits.find((h) => h.hydration !== 'listed');
      if (firstShown?.hydration === 'truncated') expect(firstShown.rank).toBe(1);
    }
  });

  it('rejects a budget below the minimum and a k below 1', async () => {
    await expect(cli.query('x', { budget: 10 })).rejects.toThrow(/at least 200/);
    await expect(cli.query('x', { k: 0 })).rejects.toThrow(/positive integer/);
  });
});

describe('skillc query (CLI)', () => {
  it('prints markdown and exits 0 with hits', () => {
    const r = skillc(['query', INTRUSION, '--dist', retrievalDist, '-k', '2']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^<!-- skillc query "detect intrusions and suspicious beaconing": 2 hits, at most \d+ of 8000 tokens/);
    expect(r.stdout).toContain('# 1. threat-detection');
    expect(r.stdout).toContain('# 2. pcap-capture');
    expect(r.stdout).toContain('via dep (reverse) from threat-detection');
  });

  it('prints JSON that validates against schemas/query-result.schema.json', () => {
    const r = skillc(['query', INTRUSION, '--dist', retrievalDist, '--format', 'json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as unknown;
    expect(validateAgainst('query-result', doc).errors).toEqual([]);
  });

  it('exits 1 with NO_SKILL_HIT, and 2 for a missing dist or a bad option', () => {
    expect(skillc(['query', 'xyzzy', '--dist', retrievalDist])).toMatchObject({ code: 1, stdout: expect.stringMatching(/^NO_SKILL_HIT/) });
    const missing = skillc(['query', 'x', '--dist', path.join(retrievalDist, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope does not exist: build the library first/);
    // Not a dist: a file, or a library folder. Never a suggestion to build into it.
    expect(skillc(['query', 'x', '--dist', path.join(ROOT, 'package.json')]).stderr).toMatch(/package\.json is not a folder; --dist names the output folder of skillc build/);
    const library = skillc(['query', 'x', '--dist', path.join(ROOT, 'examples', 'skills')]);
    expect(library.stderr).toMatch(/is not a skillc dist \(it has no manifest\.json\)/);
    expect(library.stderr).not.toMatch(/skillc build <library> -o/);
    expect(skillc(['query', 'x', '--dist', retrievalDist, '--budget', '50']).code).toBe(2);
    expect(skillc(['query', 'x', '--dist', retrievalDist, '--format', 'xml']).code).toBe(2);
  });

  it('explains itself in --help', () => {
    const r = skillc(['query', '--help']);
    expect(r.code).toBe(0);
    for (const s of ['--dist', '--budget', '--format', '--plan', 'NO_SKILL_HIT', 'k3 = 8', 'never reorders', 'Exit codes']) expect(r.stdout).toContain(s);
  });
});
