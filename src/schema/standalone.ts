/**
 * The validators of every schema in schemas/, compiled once when skillc is built instead of in
 * every process that validates (compiling them cost a build about 0.4 s). rolldown.config.js
 * writes these modules beside the bundle, in PRECOMPILED_DIR, and schema/validate.ts loads them;
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
 * The CommonJS modules, one per schema: its validator exported under its name, its parts of
 * PRECOMPILED_PARTS under `name#pointer`, and the digest of the schemas they were compiled from
 * (validate.ts ignores a file when they differ). One module per schema, because a process loads
 * only the validators it uses: a cold `skillc query` needs one, and loading all of them (1.3 MB
 * of code) cost it about 20 ms.
 */
export function validatorsModules(): { readonly name: SchemaName; readonly text: string }[] {
  const ajv = newAjv({ code: { source: true } });
  const ids = new Map<SchemaName, string>();
  for (const name of SCHEMA_NAMES) {
    const schema = JSON.parse(fs.readFileSync(schemaPath(name), 'utf8')) as { $id: string };
    ids.set(name, schema.$id);
    ajv.addSchema(schema);
  }
  const digest = `exports[${JSON.stringify(SCHEMAS_DIGEST_EXPORT)}] = ${JSON.stringify(schemasDigest())};\n`;
  return SCHEMA_NAMES.map((name) => {
    const refs: Record<string, string> = { [name]: ids.get(name)! };
    for (const [part, pointer] of PRECOMPILED_PARTS) if (part === name) refs[`${name}#${pointer}`] = `${ids.get(name)!}#${pointer}`;
    // ajv-formats' and ajv's runtime helpers are required by name, from node_modules, as the bundle's externals are.
    return { name, text: `${standaloneCode(ajv, refs)}\n${digest}` };
  });
}
