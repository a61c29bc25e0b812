import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateAgainst } from '../src/schema/validate.js';
import { ROOT } from './helpers/cli.js';
import { TOOL_VERSION } from '../src/version.js';
import { DIAGNOSTIC_CODES } from '../src/ir/diagnostics.js';

describe('schemas and data files', () => {
  it('rules/policy.json holds SPEC defaults and validates', () => {
    const policy = JSON.parse(fs.readFileSync(path.join(ROOT, 'rules', 'policy.json'), 'utf8'));
    expect(validateAgainst('policy', policy)).toEqual({ valid: true, errors: [] });
    expect(policy.weights).toEqual({ binding: 1.0, coverage: 0.7, replacement: 0.5, risk: 1.0 });
    expect(policy.gates).toMatchObject({ riskMax: 0.8, bindingMin: 0.5 });
    expect(policy.tiers).toEqual({ autoPromote: 0.65, review: 0.35 });
  });

  it('rejects a policy with a threshold out of range or an unknown field', () => {
    const policy = JSON.parse(fs.readFileSync(path.join(ROOT, 'rules', 'policy.json'), 'utf8'));
    expect(validateAgainst('policy', { ...policy, tiers: { autoPromote: 1.5, review: 0.3 } }).valid).toBe(false);
    expect(validateAgainst('policy', { ...policy, extra: 1 }).errors[0]).toMatch(/additional properties/);
  });

  it('the parents schema rejects a unit without its text', () => {
    const doc = { schemaVersion: 1, tool: { name: 'skillc', version: TOOL_VERSION }, skipped: [], parents: [{ path: 'a', file: 'a/SKILL.md', bytes: 0, sha256: '0'.repeat(64), encoding: 'utf-8', lines: 0, frontmatter: { raw: '', data: null }, units: [{ id: 'a#0' }], scripts: [], references: [], assets: [] }] };
    const r = validateAgainst('parents', doc);
    expect(r.valid).toBe(false);
    expect(r.errors.join(' ')).toMatch(/must have required property 'text'/);
  });

  it('package.json version matches the version in artifacts', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.version).toBe(TOOL_VERSION);
  });

  it('diagnostic codes are unique and well-formed', () => {
    const codes = Object.values(DIAGNOSTIC_CODES).map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const c of codes) expect(c).toMatch(/^SKC\d{3}$/);
  });
});

describe('stableStringifyStream', () => {
  it('gives the bytes of stableStringify, in pieces, for empty, one and many elements', async () => {
    const { stableStringify, stableStringifyStream } = await import('../src/util/stable-json.js');
    for (const parents of [[], [{ b: 1, a: [1, { z: 'x\n"' }] }], [{ a: 1 }, [], 'p', null, { parents: [] }]]) {
      for (const indent of [1, 2, 4]) {
        const doc = { tool: { name: 'skillc' }, parents, schemaVersion: 1, aardvark: [{ parents: [] }] };
        const pieces = [...stableStringifyStream(doc, 'parents', indent).pieces()];
        expect(pieces.join('')).toBe(stableStringify(doc, indent));
      }
    }
  });
});

describe('stableStringifyStream and parents.json as a stream', () => {
  it('gives the bytes of stableStringify each time it is iterated, mapping items only as they go by', async () => {
    const { stableStringify, stableStringifyStream } = await import('../src/util/stable-json.js');
    const parents = [{ b: 1 }, { b: 2 }, { b: 3 }];
    const mapped: number[] = [];
    const stream = stableStringifyStream({ schemaVersion: 1, parents }, 'parents', 2, (p) => {
      mapped.push((p as { b: number }).b);
      return { ...(p as object), seen: true };
    });
    expect(mapped).toEqual([]);
    const seen: string[] = [];
    const first = [...stream.pieces((text) => seen.push(text))].join('');
    expect(first).toBe(stableStringify({ schemaVersion: 1, parents: parents.map((p) => ({ ...p, seen: true })) }, 2));
    expect(seen).toHaveLength(3);
    expect([...stream.pieces()].join('')).toBe(first);
    expect(mapped).toEqual([1, 2, 3, 1, 2, 3]);
  });

  it('reports an element that does not match the schema as a skillc bug, when it is produced', async () => {
    const { jsonArtifactByItem, SchemaViolationError } = await import('../src/emit/json-artifact.js');
    const doc = { schemaVersion: 1, tool: { name: 'skillc', version: '0.1.0' }, parents: [{ path: 'x' }], skipped: [] };
    const artifact = jsonArtifactByItem('parents.json', 'parents', doc, 'parents');
    expect('content' in artifact).toBe(true);
    const content = (artifact as { content: Iterable<string> }).content;
    expect(() => [...content].join('')).toThrow(SchemaViolationError);
    expect(() => [...content].join('')).toThrow(/parents\.json does not match schemas\/parents\.schema\.json: \/parents\/0/);
  });

  it('takes the text of an element from the memo when it has one, and keeps what it produces', async () => {
    const { jsonArtifactByItem } = await import('../src/emit/json-artifact.js');
    // The first element is invalid: produced, it would throw; given back by the memo, it is written as kept.
    const doc = { schemaVersion: 1, tool: { name: 'skillc', version: '0.1.0' }, parents: [{ path: 'kept' }, { path: 'new' }], skipped: [] };
    const kept = new Map([['k:kept', '{ "kept": true }']]);
    const put: [string, string][] = [];
    const artifact = jsonArtifactByItem('parents.json', 'parents', doc, 'parents', {
      mapItem: (p) => ({ path: (p as { path: string }).path }),
      itemMemo: { keyOf: (p) => `k:${(p as { path: string }).path}`, get: (k) => kept.get(k), put: (k, t) => put.push([k, t]), fits: () => true },
    });
    // The second element does not match the schema either: it is produced, so it is checked.
    expect(() => [...(artifact as { content: Iterable<string> }).content].join('')).toThrow(/\/parents\/1/);
    expect(put).toEqual([]);
    const valid = jsonArtifactByItem('x.json', 'parents', { ...doc, parents: [{ path: 'kept' }] }, 'parents', {
      itemMemo: { keyOf: () => 'k:kept', get: (k) => kept.get(k), put: (k, t) => put.push([k, t]), fits: () => true },
    });
    expect([...(valid as { content: Iterable<string> }).content].join('')).toContain('    { "kept": true }\n');
    // A kept text that does not fit its element, or an element without a key, is produced (and checked).
    for (const itemMemo of [
      { keyOf: () => 'k:kept', get: (k: string) => kept.get(k), put: (k: string, t: string) => void put.push([k, t]), fits: () => false },
      { keyOf: () => null, get: (k: string) => kept.get(k), put: (k: string, t: string) => void put.push([k, t]), fits: () => true },
    ]) {
      const produced = jsonArtifactByItem('y.json', 'parents', { ...doc, parents: [{ path: 'kept' }] }, 'parents', { itemMemo });
      expect(() => [...(produced as { content: Iterable<string> }).content].join('')).toThrow(/\/parents\/0/);
    }
    expect(put).toEqual([]);
  });
});
