/**
 * The graph's per-skill work kept between builds (build-graph.ts GraphMemo): values read back from
 * the cache give the graph a cold build gives, and a value of the wrong shape is never used.
 */
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { isSkillIO, loadArtifactLexicon, skillIO, skillIOInput } from '../../src/graph/artifacts.js';
import { buildGraph, type BodyModel, type GraphMemo, type ParentHydration } from '../../src/graph/build-graph.js';
import { nearestParents } from '../../src/graph/edges/sem.js';
import { parentNodeId, type GraphDocument } from '../../src/graph/types.js';
import { buildTfidfFromCounts, indexTermCounts, isTermCounts, type TermCounts } from '../../src/propose/tfidf.js';
import { decodeValue, encodeValue } from '../../src/cache/codec.js';
import { buildInProcess } from '../helpers/build-ir.js';
import type { BuildIR } from '../../src/ir/types.js';

const LIBRARY = path.resolve('test/fixtures/retrieval');

function hydration(ir: BuildIR): Map<string, ParentHydration> {
  return new Map((ir.parents ?? []).map((p) => [p.path, { bundle: `bundles/${p.path}.md`, source: `skills/${p.path}/SKILL.md`, tokens: 1 }]));
}

describe('graph memo', () => {
  it('gives the same graph from values stored by an earlier build as from computing them', async () => {
    const ir = (await buildInProcess(LIBRARY)).ir;
    expect(ir.parents!.length).toBeGreaterThan(2);
    const stored = new Map<string, unknown>();
    const recording: GraphMemo = {
      termCounts: (text) => {
        const v = indexTermCounts(text);
        stored.set(`t:${text}`, decodeValue(encodeValue(v)));
        return v;
      },
      skillIO: (p) => {
        const v = skillIO(p, loadArtifactLexicon());
        stored.set(`io:${skillIOInput(p)}`, decodeValue(encodeValue(v)));
        return v;
      },
    };
    const cold = buildGraph(ir, hydration(ir));
    expect(buildGraph(ir, hydration(ir), recording)).toEqual(cold);
    expect([...stored.values()].some((v) => isSkillIO(v) && v.mentions.length > 0)).toBe(true);
    const replay: GraphMemo = {
      termCounts: (text) => {
        const v = stored.get(`t:${text}`);
        if (!isTermCounts(v)) throw new Error('not stored');
        return v;
      },
      skillIO: (p) => {
        const v = stored.get(`io:${skillIOInput(p)}`);
        if (!isSkillIO(v)) throw new Error('not stored');
        return v;
      },
    };
    const warm = buildGraph(ir, hydration(ir), replay);
    expect(JSON.stringify(warm)).toBe(JSON.stringify(cold));
  });

  it('uses a body model computed beforehand only for the very body counts it read, and gets the same graph', async () => {
    const ir = (await buildInProcess(LIBRARY)).ir;
    const cold = buildGraph(ir, hydration(ir));
    const bodies = ir.parents!.map((p) => p.units.map((u) => u.text).join(''));
    const counts = bodies.map((b) => indexTermCounts(b));
    const vectors = buildTfidfFromCounts(counts).vectors;
    const model: BodyModel = { counts, vectors, nearest: nearestParents(vectors, ir.parents!.map((p) => parentNodeId(p.path))) };
    const reading = (given: readonly TermCounts[]): GraphMemo => ({ termCounts: indexTermCounts, skillIO: (p) => skillIO(p, loadArtifactLexicon()), bodyCounts: (p) => given[ir.parents!.indexOf(p)]! });
    expect(JSON.stringify(buildGraph(ir, hydration(ir), reading(counts), model))).toBe(JSON.stringify(cold));
    // A model whose neighbours are wrong shows when it is used ...
    const wrong: BodyModel = { ...model, nearest: model.nearest.map((_, i) => [{ j: (i + 1) % model.nearest.length, sim: 0.99 }]) };
    const sem = (doc: GraphDocument) => doc.edges.filter((e) => e.type === 'sem').map((e) => `${e.from} ${e.to} ${e.weight}`);
    expect(sem(buildGraph(ir, hydration(ir), reading(counts), wrong))).not.toEqual(sem(cold));
    // ... and is not used when the graph reads other counts (a build cache's), however equal.
    const others = counts.map((c) => ({ ...c }));
    expect(JSON.stringify(buildGraph(ir, hydration(ir), reading(others), wrong))).toBe(JSON.stringify(cold));
  });

  it('skillIOInput changes with every part of a skill that skillIO reads', async () => {
    const ir = (await buildInProcess(LIBRARY)).ir;
    const p = ir.parents![0]!;
    const base = skillIOInput(p);
    const u = p.units[p.units.length - 1]!;
    expect(skillIOInput({ ...p, file: `${p.file}x` })).not.toBe(base);
    expect(skillIOInput({ ...p, frontmatter: { ...p.frontmatter, yamlLine: p.frontmatter.yamlLine + 1 } })).not.toBe(base);
    expect(skillIOInput({ ...p, frontmatter: { ...p.frontmatter, data: { ...p.frontmatter.data, description: 'Writes a CSV.' } } })).not.toBe(base);
    // Only a string description is read; any other value keys as none (and a cyclic one cannot throw).
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    expect(skillIOInput({ ...p, frontmatter: { ...p.frontmatter, data: { ...p.frontmatter.data, description: cyclic } } })).toBe(skillIOInput({ ...p, frontmatter: { ...p.frontmatter, data: { ...p.frontmatter.data, description: 7 } } }));
    expect(skillIOInput({ ...p, units: [...p.units.slice(0, -1), { ...u, text: `${u.text} pdf` }] })).not.toBe(base);
    expect(skillIOInput({ ...p, units: [...p.units.slice(0, -1), { ...u, line: u.line + 1 }] })).not.toBe(base);
  });

  it('refuses a stored SkillIO of the wrong shape', () => {
    const good = { mentions: [{ type: 'csv', role: 'input', file: 'a/SKILL.md', line: 3, where: 'prose' }], inputs: ['csv'], outputs: [] };
    expect(isSkillIO(good)).toBe(true);
    for (const bad of [
      null,
      { ...good, inputs: [1] },
      { ...good, outputs: undefined },
      { ...good, mentions: [{ ...good.mentions[0], role: 'both' }] },
      { ...good, mentions: [{ ...good.mentions[0], line: 2.5 }] },
      { ...good, mentions: [{ ...good.mentions[0], where: 'elsewhere' }] },
      { ...good, mentions: [null] },
    ]) {
      expect(isSkillIO(bad)).toBe(false);
    }
  });
});
