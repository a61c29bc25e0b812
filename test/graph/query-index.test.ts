/**
 * The query index (dist/index/) against graph.json: an index loaded from its files ranks, plans
 * and lists exactly as the same graph indexed in memory; terms are found across block boundaries
 * of the postings directory; a preloaded index answers without reading its files again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildQueryFixtures } from '../helpers/cli.js';
import { indexOf, loadGraphIndex, readGraphDocument } from '../../src/query/graph-index.js';
import { rank } from '../../src/query/rank.js';
import { planSteps } from '../../src/query/plan.js';
import { openRetriever } from '../../src/query/retriever.js';
import { CORE_FILE, encodeQueryIndex, NODES_FILE, POSTINGS_FILE, TERMS_PER_BLOCK } from '../../src/graph/query-index.js';
import { validateAgainst } from '../../src/schema/validate.js';

let dists: string[];

beforeAll(() => {
  const built = buildQueryFixtures('query-index');
  dists = [built.retrievalDist, built.cliDist];
}, 120_000);

const QUERIES = ['detect intrusions and suspicious beaconing', 'back up a postgres database to s3', 'write a changelog entry', 'resize images in bulk', 'clone a repository, set up a python environment and download a dataset', 'xyzzy plugh'];

describe('dist/index', () => {
  it('holds what encodeQueryIndex makes of graph.json, and core.json matches its schema', () => {
    for (const dist of dists) {
      const files = encodeQueryIndex(readGraphDocument(dist));
      expect(JSON.parse(fs.readFileSync(path.join(dist, CORE_FILE), 'utf8'))).toEqual(JSON.parse(JSON.stringify(files.core)));
      expect(fs.readFileSync(path.join(dist, NODES_FILE), 'utf8')).toBe(files.nodes);
      expect(fs.readFileSync(path.join(dist, POSTINGS_FILE), 'utf8')).toBe(files.postings);
      expect(validateAgainst('query-index', files.core).errors).toEqual([]);
      // The index's id on the first line of both files, then one record per line, one line per node.
      const lines = files.nodes.split('\n').filter(Boolean);
      expect(lines).toHaveLength(files.core.nodes.length + 1);
      expect(lines[0]).toBe(`{"index":"${files.core.id}"}`);
      expect(files.postings.startsWith(`${lines[0]}\n`)).toBe(true);
    }
  });

  it('ranks and plans exactly as the graph indexed in memory', () => {
    for (const dist of dists) {
      const fromFiles = loadGraphIndex(dist);
      const inMemory = indexOf(dist, readGraphDocument(dist));
      for (const q of QUERIES) {
        expect(rank(fromFiles, q, 8)).toEqual(rank(inMemory, q, 8));
        expect(planSteps(fromFiles, q, 8)).toEqual(planSteps(inMemory, q, 8));
      }
    }
  });

  it('finds every term of the lexicon, at block boundaries too, and no term it does not hold', () => {
    const dist = dists[1]!;
    const doc = readGraphDocument(dist);
    const terms = Object.keys(doc.lexicon.postings).sort();
    expect(terms.length).toBeGreaterThan(2 * TERMS_PER_BLOCK);
    const index = loadGraphIndex(dist);
    for (const t of terms) expect(Array.from(index.postings(t)), t).toEqual(doc.lexicon.postings[t]!.split(' ').map(Number));
    // Before the first term, between two terms, after the last.
    for (const t of ['0', `${terms[TERMS_PER_BLOCK]!}0`, 'zzzzzz']) expect(index.postings(t)).toHaveLength(0);
  });

  it('reads nothing more once preloaded (a server), and lists every node', async () => {
    const copy = fs.mkdtempSync(path.join(path.dirname(dists[0]!), 'preloaded-'));
    fs.cpSync(dists[0]!, copy, { recursive: true });
    const cold = await openRetriever(dists[0]!).query(QUERIES[0]!);
    const retriever = openRetriever(copy);
    retriever.index.preload();
    fs.rmSync(path.join(copy, 'index'), { recursive: true });
    expect(retriever.index.allNodes().map((n) => n.id)).toEqual(retriever.index.nodeIds);
    // A term no skill holds is not looked up in the (closed) files either.
    expect(retriever.index.postings('zzzzqqq')).toHaveLength(0);
    const warm = await retriever.query(QUERIES[0]!);
    expect(warm.hits.map((h) => [h.node.id, h.score, h.text])).toEqual(cold.hits.map((h) => [h.node.id, h.score, h.text]));
  });
});
