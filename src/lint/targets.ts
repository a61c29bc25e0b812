/**
 * Maps the paths given to `skillc lint` to skills, as pre-commit and lint-staged pass them: a
 * SKILL.md, a script or reference inside a skill, a skill folder, or a library folder holding many
 * skills. A file maps to the nearest folder above it that holds a skill file; a folder inside a
 * skill maps to that skill; any other folder is read as a library. Skills are deduplicated and
 * sorted, so the output does not depend on argument order.
 *
 * Nothing the loader leaves out passes silently: a linter that exits 0 on a skill it never read
 * lies to the hook that runs it. Every loader problem under the given paths becomes a lint message
 * (LoadProblem): a skill file that could not be read (too large, unreadable, a symbolic link, not
 * a regular file) is an error, as is an unreadable file or folder and a script too large to scan;
 * a script reached through a link, a link out of the skill and a FIFO or device are warnings. A misnamed skill file (`skill.md`) is read and linted like
 * SKILL.md, and the rule skill-file-name reports its name.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SourceSkill } from '../ir/types.js';
import type { Diagnostic } from '../ir/diagnostics.js';
import { CODE_EXTENSIONS, extensionOf } from '../load/classify.js';
import { DEFAULT_MAX_SKILL_BYTES, loadLibrary, LibraryUnreadableError } from '../load/load-library.js';
import { errnoText } from '../util/errno.js';
import { compareCodeUnits } from '../util/stable-json.js';
import { ENGINE_RULES } from './engine-rules.js';
import type { MessageSeverity } from './types.js';

/** A problem of reading, not of content: reported as a message at line 1 of `file`. */
export interface LoadProblem {
  /** Absolute path of the file or folder concerned. */
  readonly file: string;
  readonly ruleId: string;
  readonly severity: MessageSeverity;
  readonly message: string;
}

export interface LintTarget {
  /** Absolute path of the skill folder. */
  readonly dir: string;
  readonly skill: SourceSkill;
  /** Problems reading the skill's other files (the skill itself was read). */
  readonly loadProblems: readonly LoadProblem[];
}

export interface ResolvedTargets {
  readonly targets: readonly LintTarget[];
  /** Problems not attached to a linted skill: skills that could not be read, unreadable folders. */
  readonly problems: readonly LoadProblem[];
  /** Usage problems (a missing path, a folder without skills): the command exits 2. */
  readonly errors: readonly string[];
  /** Files given that belong to no skill: skipped, with a note. */
  readonly skipped: readonly string[];
}

/** Whether a folder holds an entry that names a skill file: SKILL.md in any letter case, of any kind. */
function holdsSkillFile(dir: string): boolean {
  try {
    return fs.readdirSync(dir).some((name) => name.toLowerCase() === 'skill.md');
  } catch {
    return false;
  }
}

function enclosingSkill(start: string): string | null {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (holdsSkillFile(dir)) return dir;
    if (path.dirname(dir) === dir) return null;
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
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      errors.push(code === 'ENOENT' || code === 'ENOTDIR' ? `no such file or folder: ${given}` : `cannot read ${given}: ${errnoText(err)}`);
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
  const problems = new Map<string, LoadProblem>();
  const addProblem = (p: LoadProblem) => problems.set(`${p.file}\0${p.ruleId}\0${p.message}`, p);
  for (const lib of [...libraries].sort(compareCodeUnits)) {
    let loaded;
    try {
      loaded = loadLibrary(lib, { acceptMisnamed: true });
    } catch (err) {
      errors.push(err instanceof LibraryUnreadableError ? err.message : String(err));
      continue;
    }
    const { skills, diagnostics } = loaded;
    const lintable = diagnostics.map((d) => loadProblem(lib, d)).filter((p): p is LoadProblem => p !== null);
    if (skills.length === 0 && lintable.length === 0) errors.push(`no skills found in ${path.relative(cwd, lib) || '.'} (no folder below it holds a SKILL.md)`);
    const dirs = skills.map((s) => path.join(lib, ...s.path.split('/').filter((p) => p !== '.')));
    const attached = attach(lintable, dirs);
    skills.forEach((s, i) => found.set(dirs[i]!, { dir: dirs[i]!, skill: s, loadProblems: attached.byDir.get(dirs[i]!) ?? [] }));
    for (const p of attached.rest) addProblem(p);
  }
  for (const dir of [...skillDirs].sort(compareCodeUnits)) {
    if (found.has(dir)) continue;
    let loaded;
    try {
      loaded = loadLibrary(dir, { acceptMisnamed: true });
    } catch (err) {
      errors.push(err instanceof LibraryUnreadableError ? err.message : String(err));
      continue;
    }
    // Only this skill: nested skills and their problems are not what was given.
    const nested = loaded.skills.filter((s) => s.path !== '.').map((s) => path.join(dir, ...s.path.split('/')));
    nested.push(...loaded.skipped.filter((s) => s.path !== '.').map((s) => path.join(dir, ...s.path.split('/'))));
    const own = loaded.skills.find((s) => s.path === '.');
    const lintable = loaded.diagnostics
      .map((d) => loadProblem(dir, d))
      .filter((p): p is LoadProblem => p !== null && !nested.some((n) => p.file === n || p.file.startsWith(n + path.sep)));
    if (own) {
      found.set(dir, { dir, skill: own, loadProblems: lintable });
    } else {
      for (const p of lintable) addProblem(p);
    }
  }
  const targets = [...found.values()].sort((a, b) => compareCodeUnits(a.dir, b.dir));
  const rest = [...problems.values()].sort((a, b) => compareCodeUnits(a.file, b.file) || compareCodeUnits(a.message, b.message));
  return { targets, problems: rest, errors, skipped };
}

/** Splits problems into those inside a linted skill folder (by the nearest one) and the rest. */
function attach(problems: readonly LoadProblem[], dirs: readonly string[]): { byDir: Map<string, LoadProblem[]>; rest: LoadProblem[] } {
  const byDir = new Map<string, LoadProblem[]>();
  const rest: LoadProblem[] = [];
  const set = new Set(dirs);
  for (const p of problems) {
    let owner: string | null = null;
    for (let d = path.dirname(p.file); ; d = path.dirname(d)) {
      if (set.has(d)) {
        owner = d;
        break;
      }
      if (path.dirname(d) === d) break;
    }
    if (owner === null) rest.push(p);
    else byDir.set(owner, [...(byDir.get(owner) ?? []), p]);
  }
  return { byDir, rest };
}

/**
 * The lint message for a loader diagnostic, or null for those lint does not show: info-level
 * notes, links to files lint would not check anyway, and misnamed skill files (the rule
 * skill-file-name reports those, with its configured level). The loader's messages speak of the
 * build (--max-skill-bytes, "skipped"), so lint words its own from the file as it is now.
 */
function loadProblem(root: string, d: Diagnostic): LoadProblem | null {
  const file = path.join(root, ...d.file.split('/').filter((p) => p !== '.'));
  const base = path.basename(file);
  const isSkillFile = base.toLowerCase() === 'skill.md';
  const skillNotRead = (why: string): LoadProblem => ({ file, ruleId: ENGINE_RULES.skillNotRead, severity: 'error', message: `${why}; the skill was not linted` });
  switch (d.name) {
    case 'skill-file-too-large':
      return skillNotRead(`${base} is ${sizeOf(file)}, more than skillc reads (${DEFAULT_MAX_SKILL_BYTES / 1048576} MiB); split it and move detail to references/`);
    case 'skill-file-not-a-file':
      return skillNotRead(`${base} is ${kindOf(file)}, not a file`);
    case 'entry-unreadable':
      if (isSkillFile) return skillNotRead(`cannot read ${base}: ${readError(file)}`);
      return { file, ruleId: ENGINE_RULES.fileNotRead, severity: 'error', message: `cannot read this ${kindOf(file) === 'a folder' ? 'folder' : 'file'}: ${readError(file)}; it was not linted` };
    case 'symlink-not-followed':
      if (base === 'SKILL.md') return skillNotRead(`SKILL.md is a symbolic link (to ${linkTarget(file)}), and skillc does not follow links, so this folder is not a skill to it`);
      // A linked script is code an agent may run that no rule looked at.
      if (!/(^|\/)scripts\//.test(d.file) && !CODE_EXTENSIONS.has(extensionOf(d.file))) return null;
      return { file, ruleId: ENGINE_RULES.fileNotRead, severity: 'warning', message: `symbolic link (to ${linkTarget(file)}): skillc does not follow links, so it was not scanned for risky calls` };
    case 'large-file-not-scanned':
      // Padding a script past the limit must not be a way to hide what it runs.
      return { file, ruleId: ENGINE_RULES.fileNotRead, severity: 'error', message: `${sizeOf(file)}: too large to read as text, so it was not scanned for risky calls` };
    case 'special-file':
      return { file, ruleId: ENGINE_RULES.fileNotRead, severity: 'warning', message: `${kindOf(file)}: not read, and skillc build does not copy it` };
    case 'symlink-outside-skill':
      return { file, ruleId: ENGINE_RULES.fileNotRead, severity: 'warning', message: `symbolic link (to ${linkTarget(file)}) leading outside the skill: skillc build leaves it out of the dist` };
    default:
      return null;
  }
}

function sizeOf(file: string): string {
  try {
    return `${fs.lstatSync(file).size.toLocaleString('en-US')} bytes`;
  } catch {
    return 'too large';
  }
}

function kindOf(file: string): string {
  try {
    const st = fs.lstatSync(file);
    return st.isDirectory() ? 'a folder' : st.isFIFO() ? 'a named pipe' : st.isSocket() ? 'a socket' : st.isCharacterDevice() || st.isBlockDevice() ? 'a device' : st.isSymbolicLink() ? 'a symbolic link' : 'a file';
  } catch {
    return 'gone';
  }
}

function linkTarget(file: string): string {
  try {
    return fs.readlinkSync(file);
  } catch {
    return '?';
  }
}

/** Why the file cannot be read now, as errno code and meaning. */
function readError(file: string): string {
  try {
    const st = fs.statSync(file);
    if (st.isDirectory()) fs.readdirSync(file);
    else fs.closeSync(fs.openSync(file, 'r'));
    return 'it could not be read when the library was walked';
  } catch (err) {
    return errnoText(err);
  }
}
