/**
 * Maps the paths given to `skillc lint` to skills, as pre-commit and lint-staged pass them: a
 * SKILL.md, a script or reference inside a skill, a skill folder, or a library folder holding many
 * skills. A file maps to the nearest folder above it that holds a SKILL.md; a folder inside a
 * skill maps to that skill; any other folder is read as a library. Skills are deduplicated and
 * sorted, so the output does not depend on argument order.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SourceSkill } from '../ir/types.js';
import { loadLibrary, LibraryUnreadableError } from '../load/load-library.js';
import { compareCodeUnits } from '../util/stable-json.js';

export interface LintTarget {
  /** Absolute path of the skill folder. */
  readonly dir: string;
  readonly skill: SourceSkill;
}

export interface ResolvedTargets {
  readonly targets: readonly LintTarget[];
  /** Usage problems (a missing path, a folder without skills): the command exits 2. */
  readonly errors: readonly string[];
  /** Files given that belong to no skill: skipped, with a note. */
  readonly skipped: readonly string[];
}

function enclosingSkill(start: string): string | null {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (isFile(path.join(dir, 'SKILL.md'))) return dir;
    if (path.dirname(dir) === dir) return null;
  }
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

export function resolveTargets(paths: readonly string[], cwd: string): ResolvedTargets {
  const errors: string[] = [];
  const skipped: string[] = [];
  const skillDirs = new Set<string>();
  const libraries = new Set<string>();
  for (const given of paths) {
    const abs = path.resolve(cwd, given);
    let st: fs.Stats;
    try {
      st = fs.statSync(abs);
    } catch {
      errors.push(`no such file or folder: ${given}`);
      continue;
    }
    if (st.isDirectory()) {
      const skill = enclosingSkill(abs);
      if (skill === abs) libraries.add(abs); // the skill and any skills nested in it
      else if (skill !== null) skillDirs.add(skill);
      else libraries.add(abs);
    } else {
      const skill = enclosingSkill(path.dirname(abs));
      if (skill !== null) skillDirs.add(skill);
      else skipped.push(given);
    }
  }

  const found = new Map<string, LintTarget>();
  for (const lib of [...libraries].sort(compareCodeUnits)) {
    let skills: readonly SourceSkill[];
    try {
      skills = loadLibrary(lib).skills;
    } catch (err) {
      errors.push(err instanceof LibraryUnreadableError ? err.message : String(err));
      continue;
    }
    if (skills.length === 0) errors.push(`no skills found in ${path.relative(cwd, lib) || '.'} (no folder below it holds a SKILL.md)`);
    for (const s of skills) {
      const dir = path.join(lib, ...s.path.split('/').filter((p) => p !== '.'));
      found.set(dir, { dir, skill: s });
    }
  }
  for (const dir of [...skillDirs].sort(compareCodeUnits)) {
    if (found.has(dir)) continue;
    try {
      const own = loadLibrary(dir).skills.find((s) => s.path === '.');
      if (own) found.set(dir, { dir, skill: own });
    } catch (err) {
      errors.push(err instanceof LibraryUnreadableError ? err.message : String(err));
    }
  }
  const targets = [...found.values()].sort((a, b) => compareCodeUnits(a.dir, b.dir));
  return { targets, errors, skipped };
}
