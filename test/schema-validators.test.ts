/**
 * The bundled CLI validates with the validators compiled when skillc was built
 * (build/bundle/schema-validators/<name>.cjs, from src/schema/standalone.ts); from sources, validate.ts
 * compiles them at run time. Both must accept, reject and report alike: this test runs the two on
 * the fixture builds' artifacts and rules/, and on many broken copies of them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { seededRng } from '../src/calibrate/random.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { loadPrecompiled, newAjv, schemaPath, SCHEMA_NAMES, type SchemaName } from '../src/schema/validate.js';
import { PRECOMPILED_PARTS } from '../src/schema/standalone.js';
import { ROOT } from './helpers/cli.js';

const dir = path.join(ROOT, 'build', 'bundle', 'schema-validators');
/** The module of the validators of schema `name` (and of its parts). */
const moduleOf = (name: string) => path.join(dir, `${name.split('#')[0]!}.cjs`);

/** Every schema compiled by ajv at run time, as validate.ts does without the bundle. */
function runtimeValidators(): Map<string, ValidateFunction> {
  const ajv = newAjv();
  const out = new Map<string, ValidateFunction>();
  const ids = new Map<SchemaName, string>();
  for (const name of SCHEMA_NAMES) {
    const schema = JSON.parse(fs.readFileSync(schemaPath(name), 'utf8')) as { $id: string };
    ids.set(name, schema.$id);
    ajv.addSchema(schema);
  }
  for (const name of SCHEMA_NAMES) out.set(name, ajv.getSchema(ids.get(name)!)!);
  for (const [name, pointer] of PRECOMPILED_PARTS) out.set(`${name}#${pointer}`, ajv.getSchema(`${ids.get(name)!}#${pointer}`)!);
  return out;
}

/** Documents and the schema they are written against. */
function documents(): [string, unknown][] {
  const docs: [string, unknown][] = [];
  const json = (f: string) => JSON.parse(fs.readFileSync(f, 'utf8')) as unknown;
  const byFile: Record<string, SchemaName> = { 'candidates.json': 'candidates', 'diagnostics.json': 'diagnostics', 'graph.json': 'graph', 'manifest.json': 'manifest', 'parents.json': 'parents', 'passages.json': 'passages', 'refactored_library.json': 'refactored-library', 'report.json': 'report' };
  for (const lib of fs.readdirSync(path.join(ROOT, 'golden')).sort()) {
    const dir = path.join(ROOT, 'golden', lib);
    for (const [f, schema] of Object.entries(byFile)) if (fs.existsSync(path.join(dir, f))) docs.push([schema, json(path.join(dir, f))]);
    if (fs.existsSync(path.join(dir, 'index', 'core.json'))) docs.push(['query-index', json(path.join(dir, 'index', 'core.json'))]);
    const contracts = path.join(dir, 'contracts');
    if (fs.existsSync(contracts)) for (const f of fs.readdirSync(contracts).filter((x) => x.endsWith('.json')).sort()) docs.push(['contract', json(path.join(contracts, f))]);
  }
  for (const [f, schema] of [['policy.json', 'policy'], ['verbs.json', 'verbs'], ['slot-names.json', 'slot-names'], ['artifacts.json', 'artifacts'], ['malicious-patterns.json', 'malicious-patterns'], ['risk-sinks.json', 'risk-sinks']] as const) {
    docs.push([schema, json(path.join(ROOT, 'rules', f))]);
  }
  // The parts validated on their own, on the elements they are for.
  for (const [schema, doc] of [...docs]) {
    if (schema === 'parents') for (const p of (doc as { parents: unknown[] }).parents.slice(0, 5)) docs.push(['parents#/properties/parents/items', p]);
    if (schema === 'contract') docs.push(['contract#', doc]);
    if (schema === 'candidates') for (const c of (doc as { candidates: { profile?: unknown }[] }).candidates.slice(0, 5)) docs.push(['candidates#/properties/candidates/items/properties/profile', c.profile]);
  }
  return docs;
}

/** A copy of `doc` with one place broken: a key dropped, a value of another type, or an unknown key. */
function broken(doc: unknown, r: () => number): unknown {
  const copy = structuredClone(doc);
  const places: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const walk = (v: unknown) => {
    if (places.length > 2000 || v === null || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v as object)) {
      places.push({ parent: v as Record<string, unknown>, key: Array.isArray(v) ? Number(k) : k });
      walk(x);
    }
  };
  walk(copy);
  if (places.length === 0) return { unexpected: true };
  const { parent, key } = places[Math.floor(r() * places.length)]!;
  const how = Math.floor(r() * 4);
  const target = parent as Record<string | number, unknown>;
  if (how === 0 && !Array.isArray(parent)) delete target[key];
  else if (how === 1) target[key] = typeof target[key] === 'string' ? 7 : 'seven';
  else if (how === 2) target[key] = null;
  else if (!Array.isArray(parent)) target['zz-unknown'] = 1;
  else target[key] = { zz: [] };
  return copy;
}

const outcome = (v: ValidateFunction, data: unknown) => {
  const valid = v(data) as boolean;
  return { valid, errors: (v.errors ?? []).map((e: ErrorObject) => ({ instancePath: e.instancePath, keyword: e.keyword, message: e.message, params: e.params })) };
};

describe('validators compiled at build time', () => {
  it('accept, reject and report as the ones compiled at run time, on artifacts, rules and broken copies', () => {
    const load = createRequire(import.meta.url);
    const here = runtimeValidators();
    const pre: Record<string, ValidateFunction> = {};
    for (const name of here.keys()) pre[name] = (load(moduleOf(name)) as Record<string, ValidateFunction>)[name]!;
    for (const name of here.keys()) expect(typeof pre[name], name).toBe('function');
    // One module per schema: nothing else in the folder.
    expect(fs.readdirSync(dir).sort()).toEqual(SCHEMA_NAMES.map((n) => `${n}.cjs`).sort());
    const r = seededRng(2026);
    let invalid = 0;
    const docs = documents();
    expect(docs.length).toBeGreaterThan(40);
    for (const [name, doc] of docs) {
      expect(outcome(pre[name]!, doc), name).toEqual(outcome(here.get(name)!, doc));
      expect(outcome(pre[name]!, doc).valid, name).toBe(true);
      for (let k = 0; k < 12; k++) {
        const bad = broken(doc, r);
        const want = outcome(here.get(name)!, bad);
        if (!want.valid) invalid++;
        expect(outcome(pre[name]!, bad), name).toEqual(want);
      }
    }
    // The broken copies did break something, so the comparison covered the error paths.
    expect(invalid).toBeGreaterThan(200);
  });
});

describe('validators compiled from other schemas', () => {
  it('are not used: the file names the digest of the schemas it was compiled from', () => {
    const file = moduleOf('passages');
    expect(loadPrecompiled(file)).not.toBeNull();
    // The same file, claiming to be compiled from other schemas (a schema edited since the build).
    const stale = path.join(ROOT, 'build', `schema-validators-stale-${process.pid}.cjs`);
    try {
      fs.writeFileSync(stale, fs.readFileSync(file, 'utf8').replace(/exports\["schemasSha256"\] = "[0-9a-f]{64}"/, `exports["schemasSha256"] = "${'0'.repeat(64)}"`));
      expect(fs.readFileSync(stale, 'utf8')).toContain('0'.repeat(64));
      expect(loadPrecompiled(stale)).toBeNull();
    } finally {
      fs.rmSync(stale, { force: true });
    }
    expect(loadPrecompiled(path.join(ROOT, 'build', 'no-such-file.cjs'))).toBeNull();
  });
});
