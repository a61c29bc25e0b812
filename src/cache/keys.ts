/**
 * What cache keys are made of. A key hashes everything a cached value depends on:
 * - the running code: a fingerprint of skillc's own modules and its rules/ data, so a new
 *   version, a patched pass or an edited lexicon never reads entries an older build wrote
 *   (a version number alone would trust whoever forgot to bump it);
 * - the V8 serialisation format, since values are stored with v8.serialize (see codec.ts);
 * - the value's own inputs (a skill's bytes and file list, a pass's inputs), given by the caller.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../util/package-root.js';
import { stableStringify } from '../util/stable-json.js';
import { TOOL_VERSION } from '../version.js';
import type { SkillFileRef } from '../ir/types.js';

let fingerprint: string | undefined;

/**
 * SHA-256 over skillc's code and data as they run: the modules beside this one (the bundle's
 * chunks, or the compiled or source tree), rules/ and schemas/. Computed once per process.
 */
export function codeFingerprint(): string {
  if (fingerprint) return fingerprint;
  const hash = createHash('sha256');
  hash.update(`skillc ${TOOL_VERSION}\0node ${process.versions.node}\0v8 ${process.versions.v8}\0`);
  const here = path.dirname(fileURLToPath(import.meta.url));
  // In the bundle every chunk sits in one folder; compiled or from source, the tree is one up.
  const codeRoot = path.basename(here) === 'cache' ? path.dirname(here) : here;
  const root = packageRoot();
  for (const [dir, exts] of [[codeRoot, ['.js', '.ts']], [path.join(root, 'rules'), ['.json']], [path.join(root, 'schemas'), ['.json']]] as const) {
    for (const file of filesBelow(dir, exts)) {
      hash.update(`${path.relative(dir, file)}\0`);
      hash.update(fs.readFileSync(file));
      hash.update('\0');
    }
  }
  return (fingerprint = hash.digest('hex'));
}

function filesBelow(dir: string, exts: readonly string[]): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesBelow(p, exts));
    else if (e.isFile() && exts.some((x) => e.name.endsWith(x)) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** A skill file as keys see it: where it is, what it is, and its bytes by their hash. */
export function fileIdentity(f: SkillFileRef): unknown[] {
  return [f.path, f.relPath, f.kind, f.bytes, f.sha256, f.mode ?? null, f.symlinkTarget ?? null, f.text === undefined ? 0 : 1];
}

/** The key of a value: the code fingerprint, a namespace and the value's inputs as stable JSON. */
export function cacheKeyOf(namespace: string, inputs: unknown): string {
  return createHash('sha256').update(codeFingerprint()).update('\0').update(namespace).update('\0').update(stableStringify(inputs, 0)).digest('hex');
}
