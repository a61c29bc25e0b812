/**
 * The refactored library end to end, on the two fixture libraries (ALFWorld-like and
 * CLI-automation-like): every invoke in every skeleton type-checks against the emitted
 * contracts/index.d.ts (checked with the plain TypeScript compiler, not the code that wrote it),
 * nothing of the input is lost, every call-site round-trips, unchanged text is byte for byte, and a
 * rebuild gives the same bytes.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseInvokes } from '../../src/rewrite/invoke.js';
import { instantiate } from '../../src/rewrite/templates.js';
import { literalOf } from '../../src/typed/identifiers.js';
import type { Contract } from '../../src/ir/types.js';
import { node, readTree, ROOT, skillc } from '../helpers/cli.js';
import { scratchDir } from '../helpers/tmp.js';

const LIBRARIES = { alfworld: 'test/fixtures/alfworld', cli: 'test/fixtures/cli-automation' } as const;
const dists: Record<string, string> = {};

beforeAll(() => {
  for (const [name, lib] of Object.entries(LIBRARIES)) {
    const out = path.join(scratchDir(`refactor-${name}`), 'dist');
    const r = skillc(['build', lib, '-o', out, '-q']);
    expect(r.code, r.stderr).toBe(0);
    dists[name] = out;
  }
});

/** Type-checks `invoke(...)` calls against a dist's index.d.ts; returns the compiler's messages. */
function typeCheck(dist: string, invokes: { contract: string; bindings: Record<string, string> }[]): string[] {
  const contracts = new Map<string, Contract>();
  for (const f of fs.readdirSync(path.join(dist, 'contracts')).filter((f) => f.endsWith('.json'))) {
    const c = JSON.parse(fs.readFileSync(path.join(dist, 'contracts', f), 'utf8')) as Contract;
    contracts.set(c.id, c);
  }
  const calls = invokes.map((i) => {
    const c = contracts.get(i.contract);
    const props = Object.entries(i.bindings).map(([k, v]) => `${JSON.stringify(k)}: ${literalOf(c?.input_schema.find((f) => f.name === k)?.type ?? 'string', v)}`);
    return `invoke(${JSON.stringify(i.contract)}, { ${props.join(', ')} });`;
  });
  const dir = scratchDir('typecheck');
  fs.copyFileSync(path.join(dist, 'contracts', 'index.d.ts'), path.join(dir, 'index.d.ts'));
  fs.writeFileSync(path.join(dir, 'calls.ts'), `import type { Contracts } from './index';\ndeclare function invoke<K extends keyof Contracts>(id: K, args: Contracts[K]): void;\n${calls.join('\n')}\n`);
  const options: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, lib: ['lib.es2022.d.ts'], types: [] };
  const program = ts.createProgram([path.join(dir, 'calls.ts')], options);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
}

function skeletons(dist: string): string[] {
  return [...readTree(path.join(dist, 'skills')).entries()].filter(([f]) => f.endsWith('/SKILL.md')).map(([, b]) => b.toString('utf8'));
}

describe('refactored library: cli (a procedure that pays)', () => {
  it('rewrites parents and every invoke in every skeleton type-checks against contracts/index.d.ts', () => {
    const dist = dists['cli']!;
    const invokes = skeletons(dist).flatMap((s) => parseInvokes(s));
    expect(invokes.length).toBeGreaterThanOrEqual(5);
    expect(typeCheck(dist, invokes)).toEqual([]);
    // The check can fail: an unknown input and a missing one are reported.
    const bad = { ...invokes[0]!, bindings: { ...invokes[0]!.bindings, not_an_input: 'x' } };
    expect(typeCheck(dist, [bad]).join('\n')).toMatch(/not_an_input/);
    // Each call-site's invoke is in its parent's skeleton.
    const lib = JSON.parse(fs.readFileSync(path.join(dist, 'refactored_library.json'), 'utf8'));
    for (const cs of lib.call_sites) expect(fs.readFileSync(path.join(dist, 'skills', cs.parent, 'SKILL.md'), 'utf8')).toContain(cs.invoke);
  });

  it('replaces only the code block the invoke reproduces: the prose around it stays in the skeleton', () => {
    const dist = dists['cli']!;
    const lib = JSON.parse(fs.readFileSync(path.join(dist, 'refactored_library.json'), 'utf8'));
    expect(lib.call_sites.length).toBe(8);
    for (const cs of lib.call_sites) {
      const skeleton = fs.readFileSync(path.join(dist, 'skills', cs.parent, 'SKILL.md'), 'utf8');
      expect(cs.replaced.text.startsWith('```bash\ngit clone --depth 1 ')).toBe(true);
      expect(skeleton).not.toContain(cs.replaced.text);
      expect(skeleton).toMatch(new RegExp(`Fetch the team's helper scripts for [a-zA-Z ]+ and check that they work:\\n\\n\`${cs.invoke.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\`\\n\\nThe helpers live next to the project`));
    }
    // Each rewritten skeleton is smaller than its skill, marker line included.
    for (const p of lib.parents) expect(p.tokens.skeleton).toBeLessThan(p.tokens.original);
  });
});

describe('refactored library: alfworld (nothing pays)', () => {
  it('rewrites nothing, and says for every candidate why', () => {
    const lib = JSON.parse(fs.readFileSync(path.join(dists['alfworld']!, 'refactored_library.json'), 'utf8'));
    expect(lib.call_sites).toEqual([]);
    const stages = new Set(lib.dropped_call_sites.map((d: { stage: string }) => d.stage));
    expect([...stages].sort()).toEqual(expect.arrayContaining(['never-rewrite', 'pay']));
    for (const d of lib.dropped_call_sites) expect(d.reason.length).toBeGreaterThan(10);
  });
});

describe.each(Object.keys(LIBRARIES))('refactored library: %s', (name) => {
  it('loses nothing (bench/nothing-lost.js over library and dist)', () => {
    const r = node('build/bench/nothing-lost.js', [path.join(ROOT, LIBRARIES[name as keyof typeof LIBRARIES]), dists[name]!]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/0 misses/);
  });

  it('round-trips every call-site and keeps frontmatter and unchanged units byte for byte', () => {
    const dist = dists[name]!;
    const lib = JSON.parse(fs.readFileSync(path.join(dist, 'refactored_library.json'), 'utf8'));
    const parents = JSON.parse(fs.readFileSync(path.join(dist, 'parents.json'), 'utf8')).parents as { path: string; frontmatter: { raw: string }; units: { id: string; text: string }[] }[];
    expect(lib.stats.roundTrip.rate).toBe(1);
    for (const cs of lib.call_sites) {
      for (const a of cs.actions) {
        expect(instantiate({ template: a.template, slots: Object.keys(cs.bindings) }, cs.bindings)).toBe(a.text);
        expect(cs.original_unit_text.replace(/\s+/g, ' ')).toContain(a.text);
      }
    }
    for (const entry of lib.parents) {
      const p = parents.find((x) => x.path === entry.path)!;
      const skeleton = fs.readFileSync(path.join(dist, entry.skill), 'utf8');
      expect(skeleton.startsWith(p.frontmatter.raw)).toBe(true);
      const touched = new Set([...entry.call_sites, ...entry.cleaned_units]);
      for (const u of p.units) if (!touched.has(u.id)) expect(skeleton).toContain(u.text);
      const replaced = fs.readFileSync(path.join(dist, entry.replaced), 'utf8');
      for (const u of p.units) if (touched.has(u.id)) expect(replaced).toContain(u.text);
    }
  });

  it('gives an agent every line of each skill and nothing more (bench/faithful.js)', () => {
    const r = node('build/bench/faithful.js', [dists[name]!, path.join(ROOT, LIBRARIES[name as keyof typeof LIBRARIES])]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^lost lines: 0 in 0 skills$/m);
    expect(r.stdout).toMatch(/^bundles bigger than their skill \(o200k tokens\): 0$/m);
  });

  it('rebuilds byte for byte', () => {
    const again = path.join(scratchDir(`refactor-${name}-again`), 'dist');
    expect(skillc(['build', LIBRARIES[name as keyof typeof LIBRARIES], '-o', again, '-q', '-j', '1']).code).toBe(0);
    const a = readTree(dists[name]!);
    const b = readTree(again);
    expect([...b.keys()]).toEqual([...a.keys()]);
    for (const [k, v] of a) expect(b.get(k)!.equals(v), k).toBe(true);
  });
});

describe('the faithful-rewrite check catches a rewording', () => {
  it('bench/faithful.js reports a line the bundle lost', async () => {
    const { lostLines } = await import('../../bench/faithful.js');
    expect(lostLines('# T\n\nput laptop 1 in/on desk 1\n\nthen look\n', '# T\n\ninvoke(place-object, {object="laptop 1"})\n\nthen   look\n')).toEqual(['put laptop 1 in/on desk 1']);
  });
});
