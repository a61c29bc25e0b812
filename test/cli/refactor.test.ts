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

describe.each(Object.keys(LIBRARIES))('refactored library: %s', (name) => {
  it('rewrites parents and every invoke in every skeleton type-checks against contracts/index.d.ts', () => {
    const dist = dists[name]!;
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

  it('writes bundles in the order header, actions, skeleton, contracts', () => {
    const dist = dists[name]!;
    for (const [, b] of readTree(path.join(dist, 'bundles'))) {
      const text = b.toString('utf8');
      expect(text.split('\n')[0]).toMatch(/^> `invoke\(…\)` is notation, not an action/);
      const order = ['## 1. Actions per invoke', '## 2. Skill', '## 3. Contracts'].map((h) => text.indexOf(h));
      expect(order.every((x, i) => x > 0 && (i === 0 || x > order[i - 1]!))).toBe(true);
    }
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

describe('Rewrite Cleanup on the ALFWorld fixture (SaP appendix B)', () => {
  it('rewrites "put laptop 1 in/on desk 1" in the Example block as the place-object invoke', () => {
    const lib = JSON.parse(fs.readFileSync(path.join(dists['alfworld']!, 'refactored_library.json'), 'utf8'));
    expect(lib.cleanups).toContainEqual(expect.objectContaining({ parent: 'alfworld-object-transporter', before: 'put laptop 1 in/on desk 1', after: expect.stringMatching(/^invoke\(place-object, \{.*object="laptop 1".*"desk 1"/) }));
    const skeleton = fs.readFileSync(path.join(dists['alfworld']!, 'skills/alfworld-object-transporter/SKILL.md'), 'utf8');
    expect(skeleton).toMatch(/^Action: invoke\(place-object, /m);
    expect(skeleton).not.toContain('put laptop 1 in/on desk 1');
  });
});
