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
import type { Parent, SkillFileRef } from '../ir/types.js';

let fingerprint: string | undefined;

/**
 * SHA-256 over skillc's code and data as they run: the files beside this module (the bundle's
 * chunks and the token table, or the compiled or source tree), rules/ and schemas/, and the
 * packages it loads at run time: each direct dependency's name and version, and npm's record of
 * the installed tree (node_modules/.package-lock.json) where there is one, since a parser or a
 * grammar updated in place changes what a build produces. Computed once per process.
 */
export function codeFingerprint(): string {
  if (fingerprint) return fingerprint;
  const hash = createHash('sha256');
  hash.update(`skillc ${TOOL_VERSION}\0node ${process.versions.node}\0v8 ${process.versions.v8}\0`);
  const here = path.dirname(fileURLToPath(import.meta.url));
  // In the bundle every chunk sits in one folder; compiled or from source, the tree is one up.
  const codeRoot = path.basename(here) === 'cache' ? path.dirname(here) : here;
  const root = packageRoot();
  const own = (name: string) => !name.endsWith('.map') && !name.endsWith('.d.ts');
  const data = (name: string) => name.endsWith('.json');
  for (const [dir, keep] of [[codeRoot, own], [path.join(root, 'rules'), data], [path.join(root, 'schemas'), data]] as const) {
    for (const file of filesBelow(dir, keep)) {
      hash.update(`${path.relative(dir, file)}\0`);
      hash.update(fs.readFileSync(file));
      hash.update('\0');
    }
  }
  hash.update(dependencyVersions(root));
  return (fingerprint = hash.digest('hex'));
}

/** "name@version" of each runtime dependency as resolved, then npm's lock of the installed tree. */
function dependencyVersions(root: string): string {
  const lines: string[] = [];
  let deps: Record<string, string> = {};
  try {
    deps = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {};
  } catch {
    // No manifest to read: the code's own hash still stands.
  }
  for (const name of Object.keys(deps).sort()) lines.push(`${name}@${installedVersion(root, name) ?? 'missing'}`);
  // Installed in a project (node_modules/skillc) or globally, the lock is beside the package; in a clone, below it.
  const locks = [path.join(root, 'node_modules', '.package-lock.json'), ...(path.basename(path.dirname(root)) === 'node_modules' ? [path.join(path.dirname(root), '.package-lock.json')] : [])];
  for (const lock of locks) {
    try {
      lines.push(createHash('sha256').update(fs.readFileSync(lock)).digest('hex'));
    } catch {
      lines.push('-');
    }
  }
  return lines.join('\0');
}

/** The version in node_modules/<name>/package.json, looked up as Node would, from the package root up. */
function installedVersion(root: string, name: string): string | undefined {
  for (let dir = root; ; dir = path.dirname(dir)) {
    try {
      return (JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', ...name.split('/'), 'package.json'), 'utf8')) as { version?: string }).version;
    } catch {
      if (path.dirname(dir) === dir) return undefined;
    }
  }
}

function filesBelow(dir: string, keep: (name: string) => boolean): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesBelow(p, keep));
    else if (e.isFile() && keep(e.name)) out.push(p);
  }
  return out;
}

/** A skill file as keys see it: where it is, what it is, and its bytes by their hash. */
export function fileIdentity(f: SkillFileRef): unknown[] {
  return [f.path, f.relPath, f.kind, f.bytes, f.sha256, f.mode ?? null, f.symlinkTarget ?? null, f.text === undefined ? 0 : 1];
}

/**
 * What one parent depends on besides skillc's code: the inputs of its parse (parse.ts
 * parseCacheKey), as the parent itself records them. Two parents with equal inputs are equal in
 * every field, units included, so a value computed from a parent can be kept by these.
 */
export function parentInputs(p: Parent): unknown[] {
  return [p.path, p.file, p.sha256, p.bytes, p.mode ?? null, [...p.scripts, ...p.references, ...p.assets].map(fileIdentity)];
}

const parentKeys = new WeakMap<Parent, string>();

/** The SHA-256 of a parent's parse inputs (parentInputs), taken once per parent object. */
export function parentKey(p: Parent): string {
  let k = parentKeys.get(p);
  if (k === undefined) parentKeys.set(p, (k = createHash('sha256').update(stableStringify(parentInputs(p), 0)).digest('hex')));
  return k;
}

/** The key of a value: the code fingerprint, a namespace and the value's inputs as stable JSON. */
export function cacheKeyOf(namespace: string, inputs: unknown): string {
  return createHash('sha256').update(codeFingerprint()).update('\0').update(namespace).update('\0').update(stableStringify(inputs, 0)).digest('hex');
}
