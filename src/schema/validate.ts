/**
 * JSON Schema validation of emitted artifacts with ajv (draft 2020-12). Schemas live in the
 * package's schemas/ folder and are compiled once per process; the bundled CLI loads them
 * compiled when skillc was built (schema/standalone.ts), which saves a build about 0.4 s of
 * compiling, and falls back to compiling here for any it lacks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Ajv2020, ValidateFunction, ErrorObject } from 'ajv/dist/2020.js';
import { packageRoot } from '../util/package-root.js';

const requireHere = createRequire(import.meta.url);

/** The options every validator is compiled with, here and in schema/standalone.ts. */
export const AJV_OPTIONS = { allErrors: true, strict: true, allowUnionTypes: true } as const;

/** A new ajv instance as validators are compiled with. */
export function newAjv(options: { readonly code?: { readonly source: boolean } } = {}): Ajv2020 {
  // Loaded on first use, not with this module: the bundled CLI validates with the validators
  // compiled when it was built, and loading ajv and its formats cost a cold `skillc query` 15 ms.
  const { Ajv2020: Ajv } = requireHere('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  // ajv-formats is CommonJS; its callable is the default property.
  const addFormats = (requireHere('ajv-formats') as { default: (ajv: Ajv2020) => void }).default;
  const instance = new Ajv({ ...AJV_OPTIONS, ...options });
  addFormats(instance);
  return instance;
}

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

export const SCHEMA_NAMES = ['calibration', 'parents', 'refactored-library', 'llm-cache-entry', 'report', 'manifest', 'diagnostics', 'policy', 'verbs', 'contract', 'candidates', 'risk-sinks', 'artifacts', 'graph', 'query-result', 'plan-result', 'passages', 'slot-names', 'malicious-patterns', 'query-index'] as const;
export type SchemaName = (typeof SCHEMA_NAMES)[number];

export function schemaPath(name: SchemaName): string {
  return path.join(packageRoot(), 'schemas', `${name}.schema.json`);
}

/** The folder the build writes beside the bundle (rolldown.config.js): one module per schema, `<name>.cjs`, exporting its validators by schema name and by `name#pointer` for parts. */
export const PRECOMPILED_DIR = 'schema-validators';
const precompiled = new Map<SchemaName, Readonly<Record<string, ValidateFunction>> | null>();

/**
 * The validators of schema `name` compiled when skillc was built, when this module runs from the
 * bundle and they were compiled from the schemas as they are now (a schema edited since the bundle
 * was built is compiled here); else null.
 */
function precompiledValidators(name: SchemaName): Readonly<Record<string, ValidateFunction>> | null {
  let loaded = precompiled.get(name);
  if (loaded === undefined) {
    loaded = loadPrecompiled(fileURLToPath(new URL(`./${PRECOMPILED_DIR}/${name}.cjs`, import.meta.url)));
    precompiled.set(name, loaded);
  }
  return loaded;
}

/** The validators of a module of PRECOMPILED_DIR, or null when there is none or it was compiled from other schemas. */
export function loadPrecompiled(file: string): Readonly<Record<string, ValidateFunction>> | null {
  if (!fs.existsSync(file)) return null;
  const loaded = requireHere(file) as Record<string, unknown>;
  return loaded[SCHEMAS_DIGEST_EXPORT] === schemasDigest() ? (loaded as Record<string, ValidateFunction>) : null;
}

/** The export of each module of PRECOMPILED_DIR naming the schemas it was compiled from (schemasDigest). */
export const SCHEMAS_DIGEST_EXPORT = 'schemasSha256';

let digest: string | undefined;

/** SHA-256 of every schema's name and text, in SCHEMA_NAMES order (read once per process). */
export function schemasDigest(): string {
  if (digest === undefined) {
    const hash = createHash('sha256');
    for (const name of SCHEMA_NAMES) hash.update(`${name}\0${fs.readFileSync(schemaPath(name), 'utf8')}\0`);
    digest = hash.digest('hex');
  }
  return digest;
}

function validator(name: SchemaName): ValidateFunction {
  let v = compiled.get(name);
  if (!v) {
    v = precompiledValidators(name)?.[name] ?? compiledHere(name);
    compiled.set(name, v);
  }
  return v;
}

/** Validators compiled by this process's own ajv (every schema a part validator needs is registered there). */
const compiledByAjv = new Map<string, ValidateFunction>();

function compiledHere(name: SchemaName): ValidateFunction {
  let v = compiledByAjv.get(name);
  if (!v) {
    ajv ??= newAjv();
    const text = fs.readFileSync(schemaPath(name), 'utf8');
    // A schema that refers to another one's definitions (`graph.schema.json#/…`) needs it registered first.
    for (const m of text.matchAll(/"\$ref":\s*"([a-z-]+)\.schema\.json#/g)) if (m[1] !== name) compiledHere(m[1] as SchemaName);
    v = ajv.compile(JSON.parse(text) as object);
    compiledByAjv.set(name, v);
  }
  return v;
}

export interface SchemaCheck {
  readonly valid: boolean;
  readonly errors: readonly string[];
}

export function validateAgainst(name: SchemaName, data: unknown): SchemaCheck {
  const v = validator(name);
  const valid = v(data) as boolean;
  return { valid, errors: valid ? [] : (v.errors ?? []).slice(0, 20).map(formatError) };
}

function formatError(e: ErrorObject): string {
  return `${e.instancePath || '/'} ${e.message ?? e.keyword}`;
}

/** Validators of parts of a schema, by schema name and JSON pointer. */
const partValidators = new Map<string, ValidateFunction>();

function partValidator(name: SchemaName, pointer: string): ValidateFunction {
  let v = partValidators.get(`${name}#${pointer}`) ?? precompiledValidators(name)?.[`${name}#${pointer}`];
  if (v) partValidators.set(`${name}#${pointer}`, v);
  else {
    compiledHere(name);
    const schema = JSON.parse(fs.readFileSync(schemaPath(name), 'utf8')) as { $id: string };
    v = ajv!.getSchema(`${schema.$id}#${pointer}`);
    if (!v) throw new Error(`internal: schemas/${name}.schema.json has nothing at ${pointer}`);
    partValidators.set(`${name}#${pointer}`, v);
  }
  return v;
}

/** One element of the top-level array `key` of a document of schema `name` (at `index`, for messages). */
export function validateItemAgainst(name: SchemaName, key: string, index: number, item: unknown): SchemaCheck {
  const v = partValidator(name, `/properties/${key}/items`);
  if (!(v(item) as boolean)) return { valid: false, errors: (v.errors ?? []).slice(0, 20).map((e) => `/${key}/${index}${formatError(e)}`) };
  return { valid: true, errors: [] };
}

/** Whether `data` is valid against the part of schema `name` at JSON pointer `pointer` (`/properties/x`, or `` for all of it). */
export function isValidPart(name: SchemaName, pointer: string, data: unknown): boolean {
  return partValidator(name, pointer)(data) as boolean;
}
