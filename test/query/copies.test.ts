/**
 * A skill whose SKILL.md is byte for byte another's (libraries carry one skill under several
 * folders) is one hit: it does not take a second place of the k, and the hit names the copy's path.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { skillc } from '../helpers/cli.js';
import { scratchDir } from '../helpers/tmp.js';
import { openRetriever } from '../../src/query/retriever.js';
import { renderQueryJson, renderQueryMarkdown } from '../../src/query/render.js';
import { validateAgainst } from '../../src/schema/validate.js';
import type { GraphDocument, ParentNode } from '../../src/graph/types.js';

let dist: string;

beforeAll(() => {
  dist = path.join(scratchDir('query-copies'), 'dist');
  const r = skillc(['build', 'test/fixtures/passages', '-o', dist, '-q']);
  expect(r.code, r.stderr).toBe(0);
}, 60_000);

describe('copies in a query', () => {
  it('marks the copy in the graph with the skill it copies', () => {
    const doc = JSON.parse(fs.readFileSync(path.join(dist, 'graph.json'), 'utf8')) as GraphDocument;
    const copies = doc.nodes.filter((n): n is ParentNode => n.kind === 'parent' && n.copyOf !== undefined);
    expect(copies.map((n) => [n.path, n.copyOf])).toEqual([['ably-automation-copy', 'ably-automation']]);
  });

  it('folds the copy into the hit above it, and names it in the header and the JSON', async () => {
    const retriever = openRetriever(dist);
    try {
      const r = await retriever.query('automate ably operations via rube mcp', { k: 3 });
      const paths = r.hits.map((h) => h.node.path);
      expect(paths.filter((p) => p.startsWith('ably-automation'))).toHaveLength(1);
      // Three different skills fill the three places.
      expect(new Set(paths).size).toBe(3);
      const ably = r.hits.find((h) => h.node.path.startsWith('ably-automation'))!;
      expect(ably.alsoAt).toEqual([ably.node.path === 'ably-automation' ? 'ably-automation-copy' : 'ably-automation']);
      expect(renderQueryMarkdown(r)).toContain(`the same SKILL.md is also at \`${ably.alsoAt![0]}\``);
      const json = JSON.parse(renderQueryJson(r)) as { hits: { alsoAt?: string[] }[] };
      expect(validateAgainst('query-result', json).errors).toEqual([]);
      expect(json.hits.filter((h) => h.alsoAt).map((h) => h.alsoAt)).toEqual([ably.alsoAt]);
    } finally {
      retriever.close();
    }
  });

  it('gives a copy one step of a plan', async () => {
    const retriever = openRetriever(dist);
    try {
      const plan = await retriever.plan('automate ably operations via rube mcp', { k: 5 });
      const steps = plan.steps.map((s) => s.node.path);
      expect(steps.filter((p) => p.startsWith('ably-automation'))).toHaveLength(1);
      expect(plan.steps.find((s) => s.node.path.startsWith('ably-automation'))!.alsoAt).toHaveLength(1);
    } finally {
      retriever.close();
    }
  });

  it('shows a skill whose text is a hit\'s above, but whose bytes are not (a byte order mark), as a pointer to it', async () => {
    const dir = scratchDir('query-bom-twin');
    const text = '---\nname: csv-dedupe\ndescription: Removes duplicate rows from a CSV file by key columns.\n---\n\n# CSV dedupe\n\nRun `python dedupe.py in.csv --key id` to drop repeated rows.\n';
    for (const [name, bytes] of [['csv-dedupe', Buffer.from(text)], ['csv-dedupe-bom', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])]] as const) {
      fs.mkdirSync(path.join(dir, 'lib', name), { recursive: true });
      fs.writeFileSync(path.join(dir, 'lib', name, 'SKILL.md'), bytes);
    }
    const out = path.join(dir, 'dist');
    expect(skillc(['build', path.join(dir, 'lib'), '-o', out, '-q']).code).toBe(0);
    const retriever = openRetriever(out);
    try {
      const r = await retriever.query('remove duplicate rows from a csv file', { k: 2 });
      expect(r.hits).toHaveLength(2);
      expect(r.hits[0]!.alsoAt).toBeUndefined();
      expect(r.hits[1]!.text).toMatch(/\[skillc: the same text as hit 1 above\]\n$/);
    } finally {
      retriever.close();
    }
  });
});
