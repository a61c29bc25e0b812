/**
 * What a file of dist/ is, and JSON artifacts: stable key order, and checked against their schema
 * in schemas/ before anything is written (a mismatch is a skillc bug and throws).
 */
import { stableStringify, stableStringifyPieces } from '../util/stable-json.js';
import { validateAgainst, validateItemsAgainst, type SchemaName } from '../schema/validate.js';

/**
 * One file of dist/: rendered content, a byte-for-byte copy of an input file, or a symbolic link
 * recreated as it was. `mode` (permission bits) is the input file's, for files that stand for one;
 * without it a file gets the default (0o666 less the umask).
 */
export type Artifact =
  | { readonly path: string; readonly content: string | Uint8Array | readonly string[]; readonly mode?: number }
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

/**
 * Like jsonArtifact for a document dominated by one top-level array (parents.json): written and
 * checked element by element, so its size is bounded by the disk, not by V8's longest string.
 * The bytes are those jsonArtifact would write.
 */
export function jsonArtifactByItem(path: string, schema: SchemaName, data: Readonly<Record<string, unknown>>, key: string, indent = 2): Artifact {
  const { pieces, items, frame } = stableStringifyPieces(data, key, indent);
  const check = validateAgainst(schema, JSON.parse(frame));
  const itemCheck = check.valid ? validateItemsAgainst(schema, key, items.map((t) => JSON.parse(t) as unknown)) : check;
  if (!itemCheck.valid) throw new Error(`internal: ${path} does not match schemas/${schema}.schema.json: ${itemCheck.errors.join('; ')}`);
  return { path, content: pieces };
}
