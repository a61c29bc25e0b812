/**
 * What `skillc build -o DIR` may replace. A build deletes its output folder's old contents, so the
 * folder is checked first, on real paths (symbolic links and `..` resolved) and, for an existing
 * folder, by device and inode too (a bind mount shows one folder under two paths), in two tiers:
 *
 * - a floor that no flag lowers: never `/`, the home folder or anything above it, the working
 *   folder or anything above it, the library or anything above it, a folder holding `.git`, or an
 *   output path that is itself a symbolic link;
 * - above the floor, an existing non-empty folder is replaced only if skillc wrote it: its
 *   manifest.json is a regular file that validates against schemas/manifest.schema.json (whose
 *   `format` is "skillc-dist"), and every entry at its top is one a build writes. --force lifts
 *   this tier, except for a folder inside the library (its skills would go) and a folder holding a
 *   repository within four levels or too large to search.
 *
 * Every refusal is an OutputRefusedError with a one-line reason; the build exits 2 and touches
 * nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DIST_ENTRIES, DIST_FORMAT } from './artifacts.js';
import { MARKERS } from './write-dist.js';
import { validateAgainst } from '../schema/validate.js';
import { errnoText } from '../util/errno.js';

export class OutputRefusedError extends Error {}

/** A manifest larger than this is not a skillc manifest we would trust (one line per input file). */
const MAX_MANIFEST_BYTES = 256 * 1024 * 1024;

export interface GuardContext {
  /** The library being built (as given). */
  readonly library: string;
  /** Defaults: process.cwd() and os.homedir() ($HOME). */
  readonly cwd?: string;
  readonly home?: string;
}

/**
 * The real path `p` has or would have: the deepest existing ancestor resolved with realpath, the
 * rest appended. So `-o link/../x` and `-o ./symlink-to-home` are judged by where they lead.
 */
export function realPathOf(p: string): string {
  const abs = path.resolve(p);
  const rest: string[] = [];
  let head = abs;
  for (;;) {
    try {
      return path.join(fs.realpathSync.native(head), ...rest.reverse());
    } catch {
      const parent = path.dirname(head);
      if (parent === head) return abs;
      rest.push(path.basename(head));
      head = parent;
    }
  }
}

function isSameOrAncestor(candidate: string, of: string): boolean {
  const rel = path.relative(candidate, of);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The floor, as a pure function of real paths: why `out` may never be replaced, or null.
 * `out` is refused when it is the root, or the same as or an ancestor of home, the working folder
 * or the library.
 */
export function floorViolation(given: string, places: { readonly library: string; readonly cwd: string; readonly home: string }): string | null {
  const out = path.resolve(given);
  if (path.dirname(out) === out) return 'it is the root of the file system';
  if (isSameOrAncestor(out, places.home)) return out === places.home ? 'it is your home folder' : `it holds your home folder (${places.home})`;
  if (isSameOrAncestor(out, places.cwd)) return out === places.cwd ? 'it is the working folder' : `it holds the working folder (${places.cwd})`;
  if (isSameOrAncestor(out, places.library)) return out === places.library ? 'it is the library being built' : `it holds the library being built (${places.library})`;
  return null;
}

/** Throws OutputRefusedError when `outDir` must not be replaced; returns when it may be. */
export function checkOutputDir(outDir: string, force: boolean, context: GuardContext): void {
  const abs = path.resolve(outDir);
  let link: fs.Stats | null = null;
  try {
    link = fs.lstatSync(abs);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new OutputRefusedError(`cannot inspect output ${outDir}: ${errnoText(err)}`);
  }
  if (link?.isSymbolicLink()) throw new OutputRefusedError(`output ${outDir} is a symbolic link; skillc does not replace links (give the folder it points to, or another path)`);

  const real = realPathOf(abs);
  const why = floorViolation(real, {
    library: realPathOf(context.library),
    cwd: realPathOf(context.cwd ?? process.cwd()),
    home: realPathOf(context.home ?? os.homedir()),
  });
  const refuse = (reason: string): never => {
    throw new OutputRefusedError(`refusing to write the build into ${outDir}: ${reason}, and a build replaces its output folder (--force does not change this); choose a new folder such as ${suggestion(outDir)}`);
  };
  if (why) refuse(why);

  if (!link) return;
  // The same folder can be reachable under two paths (a bind mount, a container volume), which
  // real paths do not reveal: compare device and inode with the protected folders and their ancestors.
  const alias = aliasViolation(abs, { library: context.library, cwd: context.cwd ?? process.cwd(), home: context.home ?? os.homedir() });
  if (alias) refuse(alias);
  if (!link.isDirectory()) throw new OutputRefusedError(`output ${outDir} exists and is not a folder`);
  let entries: string[];
  try {
    entries = fs.readdirSync(abs);
  } catch (err) {
    throw new OutputRefusedError(`cannot read output folder ${outDir}: ${errnoText(err)}`);
  }
  if (entries.includes('.git')) throw new OutputRefusedError(`refusing to replace ${outDir}: it holds .git (a repository), and a build replaces its output folder (--force does not change this)`);
  if (entries.length === 0) return;
  const notOurs = distProblem(abs, entries);
  if (!notOurs) return;
  // --force replaces a folder skillc did not write, but never one of the library's own folders
  // (its skills would be deleted) nor one holding a repository anywhere below it.
  if (isSameOrAncestor(realPathOf(context.library), real)) {
    throw new OutputRefusedError(`refusing to replace ${outDir}: it is a folder of the library being built that skillc did not write (${notOurs}), and replacing it would delete library files (--force does not change this); choose a new folder such as ${suggestion(outDir)}`);
  }
  if (!force) throw new OutputRefusedError(`output folder ${outDir} is not empty and was not written by skillc build (${notOurs}); choose another folder, or pass --force to replace it`);
  const deep = repositoryBelow(abs);
  if (deep) throw new OutputRefusedError(`refusing to replace ${outDir}: ${deep} (--force does not change this)`);
}

/** Folders --force may replace are searched this deep and this far for a repository. */
const FORCE_SCAN_DEPTH = 4;
const FORCE_SCAN_ENTRIES = 20_000;

/**
 * Why a folder --force would replace must be kept: it holds a `.git` within FORCE_SCAN_DEPTH
 * levels, or is too large to search (more than FORCE_SCAN_ENTRIES entries); null when neither.
 */
export function repositoryBelow(dir: string): string | null {
  let seen = 0;
  const queue: { dir: string; depth: number }[] = [{ dir, depth: 0 }];
  while (queue.length > 0) {
    const { dir: d, depth } = queue.shift()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch (err) {
      return `its folder ${d} cannot be read (${errnoText(err)})`;
    }
    seen += entries.length;
    if (seen > FORCE_SCAN_ENTRIES) return `it holds more than ${FORCE_SCAN_ENTRIES} entries, which is not a dist skillc would replace by force`;
    for (const e of entries) {
      if (e.name === '.git') return `it holds a repository at ${path.join(d, e.name)}`;
      if (e.isDirectory() && depth + 1 < FORCE_SCAN_DEPTH) queue.push({ dir: path.join(d, e.name), depth: depth + 1 });
    }
  }
  return null;
}

/**
 * Device and inode of a folder and of each of its ancestors, as "dev:ino" keys, mapped to which
 * protected place they belong to and whether it is the place itself.
 */
function identities(places: Readonly<Record<string, string>>): Map<string, { place: string; self: boolean }> {
  const ids = new Map<string, { place: string; self: boolean }>();
  for (const [place, p] of Object.entries(places)) {
    let d = realPathOf(p);
    for (let self = true; ; self = false) {
      try {
        const st = fs.statSync(d);
        const key = `${st.dev}:${st.ino}`;
        if (!ids.has(key) || self) ids.set(key, { place, self });
      } catch {
        // A place that does not exist has no identity to protect.
      }
      const up = path.dirname(d);
      if (up === d) break;
      d = up;
    }
  }
  return ids;
}

const PLACE_NAMES: Readonly<Record<string, [string, string]>> = {
  library: ['it is the library being built (reached under another path)', 'it holds the library being built (reached under another path)'],
  cwd: ['it is the working folder (reached under another path)', 'it holds the working folder (reached under another path)'],
  home: ['it is your home folder (reached under another path)', 'it holds your home folder (reached under another path)'],
};

/** The floor by identity rather than path: why `out` (an existing folder) may not be replaced, or null. */
function aliasViolation(out: string, places: { readonly library: string; readonly cwd: string; readonly home: string }): string | null {
  let st: fs.Stats;
  try {
    st = fs.statSync(out);
  } catch {
    return null;
  }
  const hit = identities(places).get(`${st.dev}:${st.ino}`);
  if (!hit) return null;
  const [self, holds] = PLACE_NAMES[hit.place]!;
  return hit.self ? self : holds;
}

/** Why a folder is not a dist that skillc wrote, or null when it is. */
export function distProblem(dir: string, entries: readonly string[]): string | null {
  const manifestFile = path.join(dir, 'manifest.json');
  let st: fs.Stats;
  try {
    st = fs.lstatSync(manifestFile);
  } catch {
    return 'it has no manifest.json';
  }
  if (!st.isFile()) return 'its manifest.json is not a regular file';
  if (st.size > MAX_MANIFEST_BYTES) return 'its manifest.json is too large to be ours';
  let manifest: unknown;
  try {
    manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  } catch {
    return 'its manifest.json is not JSON';
  }
  const m = manifest as { format?: unknown; tool?: { name?: unknown } } | null;
  if (m?.format !== DIST_FORMAT) {
    return m?.tool?.name === 'skillc' ? 'its manifest.json comes from an earlier skillc without the dist marker; remove the folder or pass --force' : `its manifest.json has no "format": "${DIST_FORMAT}"`;
  }
  const check = validateAgainst('manifest', manifest);
  if (!check.valid) return `its manifest.json does not match schemas/manifest.schema.json (${check.errors[0]})`;
  // A marker file is skillc's own, left by a build killed next to a rename (write-dist.ts).
  const foreign = entries.filter((e) => !DIST_ENTRIES.has(e) && !MARKERS.has(e)).sort();
  if (foreign.length > 0) return `it also holds ${foreign.slice(0, 3).map((e) => JSON.stringify(e)).join(', ')}${foreign.length > 3 ? ` and ${foreign.length - 3} more` : ''}, which a build does not write`;
  return null;
}

function suggestion(outDir: string): string {
  const base = path.basename(path.resolve(outDir));
  return base && base !== '.' && base !== '..' ? `./${base}-dist` : './dist';
}
