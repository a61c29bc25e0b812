/**
 * JSON Schema validation of emitted artifacts with ajv (draft 2020-12). Schemas live in the
 * package's schemas/ folder and are compiled once per process.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction, type ErrorObject } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { packageRoot } from '../util/package-root.js';

// ajv-formats is CommonJS; under NodeNext its callable is the default property.
const addFormats = (addFormatsModule as unknown as { default: (ajv: Ajv2020) => void }).default;

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

export type SchemaName = 'calibration' | 'parents' | 'refactored-library' | 'llm-cache-entry' | 'report' | 'manifest' | 'diagnostics' | 'policy' | 'verbs' | 'contract' | 'candidates' | 'risk-sinks' | 'artifacts' | 'graph' | 'query-result' | 'plan-result' | 'passages' | 'slot-names' | 'malicious-patterns' | 'query-index';

export function schemaPath(name: SchemaName): string {
  return path.join(packageRoot(), 'schemas', `${name}.schema.json`);
}

function validator(name: SchemaName): ValidateFunction {
  let v = compiled.get(name);
  if (!v) {
    if (!ajv) {
      ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
      addFormats(ajv);
    }
    const text = fs.readFileSync(schemaPath(name), 'utf8');
    // A schema that refers to another one's definitions (`graph.schema.json#/…`) needs it registered first.
    for (const m of text.matchAll(/"\$ref":\s*"([a-z-]+)\.schema\.json#/g)) if (m[1] !== name) validator(m[1] as SchemaName);
    v = ajv.compile(JSON.parse(text) as object);
    compiled.set(name, v);
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
  let v = partValidators.get(`${name}#${pointer}`);
  if (!v) {
    validator(name);
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
