/**
 * The validators of every schema in schemas/, compiled once when skillc is built instead of in
 * every process that validates (compiling them cost a build about 0.4 s). rolldown.config.js
 * writes this module's text beside the bundle as PRECOMPILED_FILE, which schema/validate.ts loads;
 * it is ajv's own standalone code for the same schemas with the same options, so a validator
 * accepts, rejects and reports exactly as one compiled at run time (test/schemas.test.ts checks it).
 */
import fs from 'node:fs';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { newAjv, schemaPath, schemasDigest, SCHEMA_NAMES, SCHEMAS_DIGEST_EXPORT, type SchemaName } from './validate.js';

// ajv's standalone module is CommonJS; under NodeNext its function is the default property.
const standaloneCode = (standaloneModule as unknown as { default: (ajv: unknown, refs: Record<string, string>) => string }).default;

/** The parts of schemas validated on their own (validate.ts validateItemAgainst and isValidPart), as [schema, JSON pointer]. */
export const PRECOMPILED_PARTS: readonly (readonly [SchemaName, string])[] = [
  ['parents', '/properties/parents/items'],
  ['contract', ''],
  ['candidates', '/properties/candidates/items/properties/profile'],
];

/**
 * The CommonJS module text: one export per schema name, one per `name#pointer` of PRECOMPILED_PARTS,
 * and the digest of the schemas it was compiled from (validate.ts ignores the file when they differ).
 */
export function validatorsModule(): string {
  const ajv = newAjv({ code: { source: true } });
  const ids = new Map<SchemaName, string>();
  for (const name of SCHEMA_NAMES) {
    const schema = JSON.parse(fs.readFileSync(schemaPath(name), 'utf8')) as { $id: string };
    ids.set(name, schema.$id);
    ajv.addSchema(schema);
  }
  const refs: Record<string, string> = {};
  for (const name of SCHEMA_NAMES) refs[name] = ids.get(name)!;
  for (const [name, pointer] of PRECOMPILED_PARTS) refs[`${name}#${pointer}`] = `${ids.get(name)!}#${pointer}`;
  // ajv-formats' and ajv's runtime helpers are required by name, from node_modules, as the bundle's externals are.
  return `${standaloneCode(ajv, refs)}\nexports[${JSON.stringify(SCHEMAS_DIGEST_EXPORT)}] = ${JSON.stringify(schemasDigest())};\n`;
}
