/**
 * Shared passages end to end (test/fixtures/passages): four toolkit skills made from one template
 * and a byte copy of one of them. The "Known pitfalls" body (the same everywhere) and the "Setup"
 * body (the toolkit's name changes) are stated once and referenced from every skeleton; the copy
 * is mined once but referenced like its original; what an agent reads is every skill as written;
 * a section shared by only two skills stays. Expected skeletons: golden/passages/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { node, ROOT, skillc } from '../helpers/cli.js';
import { scratchDir } from '../helpers/tmp.js';
import { validateAgainst } from '../../src/schema/validate.js';

const LIBRARY = path.join(ROOT, 'test', 'fixtures', 'passages');
let dist: string;
const read = (rel: string) => fs.readFileSync(path.join(dist, rel), 'utf8');

beforeAll(() => {
  dist = path.join(scratchDir('passages'), 'dist');
  const r = skillc(['build', LIBRARY, '-o', dist, '-q']);
  expect(r.code, r.stderr).toBe(0);
});

describe('shared passages', () => {
  it('states each referenced passage once and references it from every skeleton that holds it', () => {
    const doc = JSON.parse(read('passages.json'));
    expect(validateAgainst('passages', doc).errors).toEqual([]);
    expect(doc.copies).toEqual([{ copy: 'ably-automation-copy', of: 'ably-automation' }]);
    const pitfalls = doc.passages.find((p: { id: string }) => p.id === 'known-pitfalls');
    expect(pitfalls.slots).toEqual([]);
    expect(pitfalls.members.map((m: { parent: string; referenced: boolean }) => [m.parent, m.referenced])).toEqual([
      ['ably-automation', true], ['ably-automation-copy', true], ['asana-automation', true], ['brevo-automation', true], ['clickup-automation', true],
    ]);
    const original = fs.readFileSync(path.join(LIBRARY, 'brevo-automation', 'SKILL.md'), 'utf8');
    const body = /## Known pitfalls\n\n([^]*?)\n\n## Notes/.exec(original)![1]!;
    expect(read('passages/known-pitfalls.md')).toContain(`---\n\n${body}\n`);
    const skeleton = read('skills/brevo-automation/SKILL.md');
    expect(skeleton).toContain('## Known pitfalls\n\n`invoke(known-pitfalls, {})`\n\n## Notes');
    expect(skeleton).toContain('## Setup\n\n`invoke(setup, {slug="brevo", name="Brevo"})`\n\n## Known pitfalls');
    expect(skeleton).toContain('Brevo limits requests per minute');
  });

  it('gives an agent every skill as written, and the library is smaller (bench/faithful.js)', () => {
    for (const s of ['asana-automation', 'ably-automation-copy']) expect(read(`bundles/${s}.md`)).toBe(fs.readFileSync(path.join(LIBRARY, s, 'SKILL.md'), 'utf8'));
    const r = node('build/bench/faithful.js', [dist, LIBRARY]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^lost lines: 0 in 0 skills$/m);
    const ratio = Number(/^library tokens: .* \((\d\.\d+)\)$/m.exec(r.stdout)![1]);
    expect(ratio).toBeLessThan(0.95);
  });

  it('leaves a section that only two skills share as it is', () => {
    expect(read('skills/notes-one/SKILL.md')).toBe(fs.readFileSync(path.join(LIBRARY, 'notes-one', 'SKILL.md'), 'utf8'));
    const doc = JSON.parse(read('passages.json'));
    expect(doc.passages.some((p: { members: { parent: string }[] }) => p.members.some((m) => m.parent === 'notes-one'))).toBe(false);
  });
});

describe('answers share passages', () => {
  it('states a shared section once: a later hit points to the hit that shows it, and costs less', async () => {
    const { openRetriever } = await import('../../src/query/retriever.js');
    const query = 'automate toolkit tasks asana brevo clickup ably';
    const r = await openRetriever(dist).query(query, { k: 3 });
    expect(r.hits.map((h) => h.hydration)).toEqual(['full', 'full', 'full']);
    const pitfalls = '- **Search first**: tool schemas change. Never hardcode a tool slug or its arguments without searching for it.';
    const answer = r.hits.map((h) => h.text).join('\n');
    expect(answer.split(pitfalls)).toHaveLength(2);
    expect(r.hits[1]!.text).toContain('## Known pitfalls\n\n[skillc: the same text as under "Known pitfalls" in hit 1 above]\n\n## Notes');
    // The setup sections differ (each names its toolkit), so each hit keeps its own.
    for (const h of r.hits) expect(h.text).toContain(`MANAGE_CONNECTIONS toolkits: ["${h.node.path.replace('-automation', '')}"]`);
    expect(r.hits[1]!.cost).toBeLessThan(r.hits[0]!.cost);
    // Without passages.json (a dist of an older build) nothing is shared, and nothing breaks.
    const old = path.join(scratchDir('passages-old'), 'dist');
    fs.cpSync(dist, old, { recursive: true });
    fs.rmSync(path.join(old, 'passages.json'));
    const plain = await openRetriever(old).query(query, { k: 3 });
    expect(plain.hits.map((h) => h.text).join('\n').split(pitfalls)).toHaveLength(4);
    expect(plain.tokens.charged).toBeGreaterThan(r.tokens.charged);
  });

  it('shows a byte copy of a skill once: folded into its hit, which names the copy', async () => {
    const { openRetriever } = await import('../../src/query/retriever.js');
    const r = await openRetriever(dist).query('ably realtime messaging automation', { k: 4 });
    const paths = r.hits.map((h) => h.node.path);
    expect(paths.filter((p) => p === 'ably-automation' || p === 'ably-automation-copy')).toHaveLength(1);
    const hit = r.hits.find((h) => h.node.path.startsWith('ably-automation'))!;
    expect(hit.alsoAt).toHaveLength(1);
    const original = fs.readFileSync(path.join(LIBRARY, 'ably-automation', 'SKILL.md'), 'utf8');
    expect(r.hits.map((h) => h.text).join('\n').split(original)).toHaveLength(2);
    expect(hit.text).toContain(`the same SKILL.md is also at \`${hit.alsoAt![0]}\``);
  });

  it('reads passages.json only when a hit has a shared section', async () => {
    const { openRetriever } = await import('../../src/query/retriever.js');
    const graph = JSON.parse(read('graph.json')) as { nodes: { path?: string; shared?: true }[] };
    const flagged = graph.nodes.filter((n) => n.shared).map((n) => n.path).sort();
    expect(flagged).toEqual(['ably-automation', 'ably-automation-copy', 'asana-automation', 'brevo-automation', 'clickup-automation']);
    // A damaged passages.json is never read for hits without a shared section, and is for one with.
    const damaged = path.join(scratchDir('passages-damaged'), 'dist');
    fs.cpSync(dist, damaged, { recursive: true });
    fs.writeFileSync(path.join(damaged, 'passages.json'), '{ not json');
    const retriever = openRetriever(damaged);
    const solo = graph.nodes.find((n) => n.path && !n.shared)!.path!;
    expect((await retriever.query(solo.replace(/-/g, ' '), { k: 1 })).hits[0]!.node.path).toBe(solo);
    await expect(retriever.query('automate toolkit tasks asana brevo clickup ably', { k: 3 })).rejects.toThrow(/passages\.json is not valid JSON: .*rebuild the library/);
    // The CLI says so in one line and exits 2, as for any damaged dist.
    const cli = skillc(['query', 'automate toolkit tasks asana brevo clickup ably', '--dist', damaged]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toMatch(/^skillc query: .*passages\.json is not valid JSON/);
    expect(cli.stderr.trim().split('\n')).toHaveLength(1);
  });
});
