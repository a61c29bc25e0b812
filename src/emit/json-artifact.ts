/**
 * What a file of dist/ is, and JSON artifacts: stable key order, and checked against their schema
 * in schemas/ before anything is written (a mismatch is a skillc bug and throws).
 */
import { stableStringify } from '../util/stable-json.js';
import { validateAgainst, type SchemaName } from '../schema/validate.js';

/**
 * One file of dist/: rendered content, a byte-for-byte copy of an input file, or a symbolic link
 * recreated as it was. `mode` (permission bits) is the input file's, for files that stand for one;
 * without it a file gets the default (0o666 less the umask).
 */
export type Artifact =
  | { readonly path: string; readonly content: string | Uint8Array; readonly mode?: number }
  | { readonly path: string; readonly copyFrom: string; readonly sha256: string; readonly mode?: number }
  | { readonly path: string; readonly symlink: string };

/** `indent` 0 writes compact JSON (graph.json, whose postings would otherwise be mostly whitespace). */
export function jsonArtifact(path: string, schema: SchemaName, data: unknown, indent = 2): Artifact {
  const text = stableStringify(data, indent);
  // Validate what will be written (after JSON normalisation), not the in-memory object.
  const check = validateAgainst(schema, JSON.parse(text));
  if (!check.valid) throw new Error(`internal: ${path} does not match schemas/${schema}.schema.json: ${check.errors.join('; ')}`);
  return { path, content: text };
}
