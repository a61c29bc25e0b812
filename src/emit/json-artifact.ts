/**
 * What a file of dist/ is, and JSON artifacts: stable key order, and checked against their schema
 * in schemas/ before anything is written (a mismatch is a skillc bug and throws).
 */
import { stableStringify, stableStringifyStream, type ItemText } from '../util/stable-json.js';
import { validateAgainst, validateItemAgainst, type SchemaName } from '../schema/validate.js';

/**
 * One file of dist/: rendered content, a byte-for-byte copy of an input file, or a symbolic link
 * recreated as it was. `mode` (permission bits) is the input file's, for files that stand for one;
 * without it a file gets the default (0o666 less the umask).
 */
export type Artifact =
  | {
      readonly path: string;
      readonly content: string | Uint8Array | Iterable<string>;
      readonly mode?: number;
      /**
       * A hash of everything the content depends on (same key, same bytes), for content that is
       * costly to produce: a rebuild compares keys instead of producing the bytes to hash them.
       */
      readonly contentKey?: string;
    }
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

/** A JSON artifact that does not match its schema: a skillc bug, reported as such wherever it is found. */
export class SchemaViolationError extends Error {}

/**
 * Like jsonArtifact for a document dominated by one top-level array (parents.json): its content is
 * produced element by element each time it is read (hashed, then written), so neither the text
 * nor a mapped copy of the list is ever held whole; its size is bounded by the disk, not by V8's
 * longest string. Each element is checked against the schema the first time it is produced. The
 * bytes are those jsonArtifact would write.
 */
export function jsonArtifactByItem(
  path: string,
  schema: SchemaName,
  data: Readonly<Record<string, unknown>>,
  key: string,
  options: { readonly mapItem?: (item: unknown) => unknown; readonly contentKey?: string; readonly itemMemo?: ItemMemo } = {},
  indent = 2,
): Artifact {
  const { mapItem, contentKey, itemMemo } = options;
  const stream = stableStringifyStream(data, key, indent, mapItem);
  const fail = (errors: readonly string[]) => new SchemaViolationError(`internal: ${path} does not match schemas/${schema}.schema.json: ${errors.join('; ')}`);
  const check = validateAgainst(schema, JSON.parse(stream.frame));
  if (!check.valid) throw fail(check.errors);
  let checked = false;
  const checkItem = (text: string, index: number) => {
    const r = validateItemAgainst(schema, key, index, JSON.parse(text) as unknown);
    if (!r.valid) throw fail(r.errors);
  };
  const content: Iterable<string> = {
    *[Symbol.iterator]() {
      yield* stream.pieces(checked ? undefined : checkItem, itemMemo ? memoText(itemMemo) : undefined);
      checked = true;
    },
  };
  return { path, content, ...(contentKey !== undefined ? { contentKey } : {}) };
}

/**
 * Element texts kept between builds (the build cache): an element's text by a key of everything
 * it depends on. A text from the memo was checked against the schema when it was first produced
 * (by the same code: the code fingerprint is in every key), so it is not checked again.
 */
export interface ItemMemo {
  /** The key of an element's inputs, or null for one that is not kept. */
  keyOf(item: unknown): string | null;
  get(key: string): string | undefined;
  put(key: string, text: string): void;
  /** Whether a kept text can be this element's (a cheap check of what it names); a text refused is produced again. */
  fits(item: unknown, text: string): boolean;
}

function memoText(memo: ItemMemo): ItemText {
  return (item, produce) => {
    const key = memo.keyOf(item);
    if (key === null) return produce();
    const kept = memo.get(key);
    if (kept !== undefined && memo.fits(item, kept)) return kept;
    const text = produce();
    memo.put(key, text);
    return text;
  };
}
