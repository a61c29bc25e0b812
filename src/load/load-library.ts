/**
 * Library discovery and reading: the only part of the front end that touches the disk.
 *
 * Walks the library with sorted readdir (deterministic, locale-independent), never follows a
 * symbolic link (so no loop and no escape from the library), skips .git and node_modules and the
 * build's own output folder, and turns every problem into a diagnostic instead of an exception:
 * an unreadable folder, a SKILL.md that is a directory, a misnamed skill.md. Every folder holding a
 * regular SKILL.md is a skill; a skill's files are those below it that are not inside a nested
 * skill. The result is plain data (SourceLibrary) that the passes work on.
 *
 * Files over STREAM_BYTES are hashed in chunks and never held in memory (a 2 GiB asset could not be
 * read whole at all); only their first bytes are looked at to class them, and a script or reference
 * that large is copied to the dist without its text being scanned (SKC123 says so). Permission
 * bits are recorded so the dist keeps them. Leftovers of an interrupted build next to an output
 * folder inside the library (`.<name>.skillc-new-…`) are never read as part of the library.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SkillFileRef, SourceLibrary, SourceSkill, SkippedSkill } from '../ir/types.js';
import { makeDiagnostic, compareDiagnostics, type Diagnostic } from '../ir/diagnostics.js';
import { compareCodeUnits } from '../util/stable-json.js';
import { sha256 } from '../util/hash.js';
import { joinRel } from '../util/paths.js';
import { errnoText } from '../util/errno.js';
import { openRegular } from '../util/open-regular.js';
import { classifyFile } from './classify.js';
import { looksLikeText } from '../text/decode.js';
import { createHash } from 'node:crypto';

const STAGE = 'load';
const SKIP_DIRS = new Set(['.git', 'node_modules', '.skillc-cache']);
/** How a dist's manifest.json starts (stable JSON, keys sorted, so "format" comes first). */
const DIST_MANIFEST_START = '{\n  "format": "skillc-dist"';
/** Files larger than this are hashed in chunks and not kept in memory (so not scanned as text). */
export const STREAM_BYTES = 8 * 1024 * 1024;
/** How much of a large file is looked at to tell text from binary. */
const SNIFF_BYTES = 64 * 1024;

export interface LoadOptions {
  /**
   * Absolute paths (resolved) not to descend into, e.g. the output folder when it is inside the
   * library; the temporary and set-aside folders of its replace (`.<name>.skillc-new-…`, see
   * write-dist.ts) are skipped with it.
   */
  readonly exclude?: readonly string[];
  /** A SKILL.md larger than this is skipped with SKC108. */
  readonly maxSkillBytes?: number;
  /** Called after each skill is read. */
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * Also take a folder whose skill file is misnamed (`skill.md`, `Skill.md`: SKILL.md in another
   * letter case) and has no SKILL.md as a skill, read from that file, as the Agent Skills
   * reference validator does. Lint sets it so such a skill is checked (and its name reported);
   * the build does not, since agents look for SKILL.md.
   */
  readonly acceptMisnamed?: boolean;
}

export class LibraryUnreadableError extends Error {}

interface Entry {
  readonly rel: string;
  readonly abs: string;
  readonly kind: 'file' | 'dir' | 'symlink' | 'other';
}

export const DEFAULT_MAX_SKILL_BYTES = 32 * 1024 * 1024;

export function loadLibrary(root: string, options: LoadOptions = {}): SourceLibrary {
  const absRoot = path.resolve(root);
  let st: fs.Stats;
  try {
    st = fs.statSync(absRoot);
  } catch (err) {
    throw new LibraryUnreadableError(`cannot read library ${root}: ${errnoText(err)}`);
  }
  if (!st.isDirectory()) throw new LibraryUnreadableError(`library ${root} is not a directory`);

  const diagnostics: Diagnostic[] = [];
  const exclude = new Set((options.exclude ?? []).map((p) => path.resolve(p)));
  const excludePrefixes = [...exclude].map((p) => path.join(path.dirname(p), `.${path.basename(p)}.skillc-`));
  const entries: Entry[] = [];
  walk(absRoot, '.', entries, diagnostics, { exclude, excludePrefixes }, true);

  // Skill folders: parents of a regular file named exactly SKILL.md (or, with acceptMisnamed and
  // no SKILL.md beside it, of the first misnamed one in code-unit order). skillFile maps each
  // skill folder to the name of the file it is read from.
  const skillFile = new Map<string, string>();
  const misnamed: Entry[] = [];
  for (const e of entries) {
    const base = e.rel.slice(e.rel.lastIndexOf('/') + 1);
    const dir = parentOf(e.rel);
    if (base === 'SKILL.md') {
      if (e.kind === 'file') skillFile.set(dir, base);
      else if (e.kind === 'symlink') diagnostics.push(makeDiagnostic(STAGE, 'symlink-not-followed', { file: e.rel, message: `SKILL.md is a symbolic link (to ${readlinkSafe(e.abs)}); links are not followed, so ${dir} is not a skill`, severity: 'warning' }));
      else diagnostics.push(makeDiagnostic(STAGE, 'skill-file-not-a-file', { file: e.rel, message: `SKILL.md is a ${e.kind === 'dir' ? 'directory' : 'special file'}, not a file; ${dir} is not a skill` }));
    } else if (base.toLowerCase() === 'skill.md' && e.kind === 'file') {
      misnamed.push(e);
    }
  }
  for (const e of misnamed) {
    const base = e.rel.slice(e.rel.lastIndexOf('/') + 1);
    const dir = parentOf(e.rel);
    if (options.acceptMisnamed && !skillFile.has(dir)) {
      skillFile.set(dir, base);
      continue;
    }
    const why = skillFile.get(dir) === 'SKILL.md' ? `the skill file of ${dir} is its SKILL.md` : `only a file named exactly SKILL.md marks a skill, so ${dir} is not one`;
    diagnostics.push(makeDiagnostic(STAGE, 'misnamed-skill-file', { file: e.rel, message: `'${base}' is not read as a skill file (${why}); rename it to SKILL.md` }));
  }
  // In walk order (sorted readdir, depth first), as entries are.
  const skillDirs = entries.filter((e) => e.kind === 'file' && skillFile.get(parentOf(e.rel)) === e.rel.slice(e.rel.lastIndexOf('/') + 1)).map((e) => parentOf(e.rel));
  const skillSet = new Set(skillDirs);
  for (const dir of skillDirs) {
    const outer = enclosingSkill(dir, skillSet);
    if (outer !== null) diagnostics.push(makeDiagnostic(STAGE, 'nested-skill', { file: joinRel(dir, skillFile.get(dir)!), message: `skill ${dir} is nested inside skill ${outer}; its files belong to it alone` }));
  }

  // Assign every other entry to its nearest enclosing skill.
  const filesBySkill = new Map<string, Entry[]>(skillDirs.map((d) => [d, []]));
  for (const e of entries) {
    if (e.kind === 'dir') continue;
    const dir = parentOf(e.rel);
    const owner = skillSet.has(dir) ? dir : enclosingSkill(dir, skillSet);
    if (owner === null) continue;
    if (e.rel === joinRel(owner, skillFile.get(owner)!)) continue;
    filesBySkill.get(owner)!.push(e);
  }

  const maxBytes = options.maxSkillBytes ?? DEFAULT_MAX_SKILL_BYTES;
  const skills: SourceSkill[] = [];
  const skipped: SkippedSkill[] = [];
  const inputs: { path: string; bytes: number; sha256: string }[] = [];
  let done = 0;
  for (const dir of skillDirs) {
    const name = skillFile.get(dir)!;
    const file = joinRel(dir, name);
    const abs = path.join(absRoot, file);
    const skip = (d: Diagnostic): void => {
      diagnostics.push(d);
      skipped.push({ path: dir, code: d.code, reason: d.message });
    };
    let content: Uint8Array | null = null;
    let mode = 0;
    try {
      const fd = openRegular(abs);
      try {
        const st = fs.fstatSync(fd);
        mode = st.mode & 0o777;
        if (st.size > maxBytes) {
          skip(makeDiagnostic(STAGE, 'skill-file-too-large', { file, message: `${name} is ${st.size} bytes, over --max-skill-bytes ${maxBytes}; skill skipped` }));
        } else {
          content = fs.readFileSync(fd);
        }
      } finally {
        fs.closeSync(fd);
      }
    } catch (err) {
      skip(makeDiagnostic(STAGE, 'entry-unreadable', { file, message: `cannot read ${name}: ${errnoText(err)}; skill skipped` }));
    }
    if (content) {
      inputs.push({ path: file, bytes: content.length, sha256: sha256(content) });
      const files = readSkillFiles(dir, filesBySkill.get(dir)!, diagnostics, inputs);
      skills.push({ path: dir, file, content, mode, files });
    }
    options.onProgress?.(++done, skillDirs.length);
  }

  inputs.sort((a, b) => compareCodeUnits(a.path, b.path));
  diagnostics.sort(compareDiagnostics);
  return { skills, inputs, diagnostics, skipped };
}

interface WalkSkips {
  readonly exclude: ReadonlySet<string>;
  readonly excludePrefixes: readonly string[];
}

function walk(abs: string, rel: string, out: Entry[], diags: Diagnostic[], skips: WalkSkips, isRoot: boolean): void {
  let dirents: fs.Dirent[];
  try {
    dirents = fs.readdirSync(abs, { withFileTypes: true });
  } catch (err) {
    if (isRoot) throw new LibraryUnreadableError(`cannot read library ${abs}: ${errnoText(err)}`);
    diags.push(makeDiagnostic(STAGE, 'entry-unreadable', { file: rel, message: `cannot read folder: ${errnoText(err)}; left out` }));
    return;
  }
  if (!isRoot && dirents.some((d) => d.name === 'manifest.json' && d.isFile()) && isSkillcDist(abs)) {
    diags.push(makeDiagnostic(STAGE, 'dist-in-library', { file: rel, message: 'a skillc dist (its manifest.json says so): its copies of skills are not read' }));
    return;
  }
  dirents.sort((a, b) => compareCodeUnits(a.name, b.name));
  for (const d of dirents) {
    const childAbs = path.join(abs, d.name);
    const childRel = joinRel(rel, d.name);
    if (d.isSymbolicLink()) {
      out.push({ rel: childRel, abs: childAbs, kind: 'symlink' });
    } else if (d.isDirectory()) {
      if (SKIP_DIRS.has(d.name) || skips.exclude.has(childAbs) || skips.excludePrefixes.some((p) => childAbs.startsWith(p))) continue;
      out.push({ rel: childRel, abs: childAbs, kind: 'dir' });
      walk(childAbs, childRel, out, diags, skips, false);
    } else if (d.isFile()) {
      out.push({ rel: childRel, abs: childAbs, kind: 'file' });
    } else {
      out.push({ rel: childRel, abs: childAbs, kind: 'other' });
      if (d.name !== 'SKILL.md') diags.push(makeDiagnostic(STAGE, 'special-file', { file: childRel, message: `${specialKind(d)}: not read and not copied to the dist` }));
    }
  }
}

/** Whether the folder holds a manifest.json that skillc build wrote (read: its first bytes only). */
function isSkillcDist(dir: string): boolean {
  try {
    const fd = openRegular(path.join(dir, 'manifest.json'));
    try {
      const head = Buffer.alloc(DIST_MANIFEST_START.length);
      const n = fs.readSync(fd, head, 0, head.length, 0);
      return head.subarray(0, n).toString('utf8') === DIST_MANIFEST_START;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false;
  }
}

function specialKind(d: fs.Dirent): string {
  return d.isFIFO() ? 'a named pipe (FIFO)' : d.isSocket() ? 'a socket' : d.isCharacterDevice() || d.isBlockDevice() ? 'a device' : 'not a regular file';
}

function readSkillFiles(skillDir: string, entries: Entry[], diags: Diagnostic[], inputs: { path: string; bytes: number; sha256: string }[]): SkillFileRef[] {
  const refs: SkillFileRef[] = [];
  const prefix = skillDir === '.' ? '' : skillDir + '/';
  for (const e of entries) {
    const relPath = e.rel.slice(prefix.length);
    if (e.kind === 'symlink') {
      const target = readlinkSafe(e.abs);
      if (leavesSkill(relPath, target)) {
        // Recreated in the dist, it would point an agent at a file outside the skill (a secret, a
        // system file) or dangle: left out, with a warning.
        diags.push(makeDiagnostic(STAGE, 'symlink-outside-skill', { file: e.rel, message: `symbolic link to ${target}, which leads outside the skill; not copied to the dist` }));
        continue;
      }
      diags.push(makeDiagnostic(STAGE, 'symlink-not-followed', { file: e.rel, message: `symbolic link to ${target} recorded but not followed` }));
      refs.push({ path: e.rel, relPath, kind: 'asset', bytes: 0, sha256: sha256(''), symlinkTarget: target });
      continue;
    }
    if (e.kind !== 'file') continue;
    let read: ReadFile;
    try {
      read = readFileForLibrary(e.abs);
    } catch (err) {
      diags.push(makeDiagnostic(STAGE, 'entry-unreadable', { file: e.rel, message: `cannot read file: ${errnoText(err)}; left out` }));
      continue;
    }
    inputs.push({ path: e.rel, bytes: read.bytes, sha256: read.sha256 });
    const kind = classifyFile(relPath, read.isText, read.head);
    if (read.text === undefined && kind !== 'asset') {
      diags.push(makeDiagnostic(STAGE, 'large-file-not-scanned', { file: e.rel, message: `${kind} of ${(read.bytes / 1048576).toFixed(1)} MiB: copied to the dist, but too large to be read as text, so it was not scanned for risky calls` }));
    }
    // A text file under assets/ keeps its text too: the malicious-install scan reads every text file
    // of a skill (a linked assets/setup.md is read by an agent like any page).
    refs.push({ path: e.rel, relPath, kind, bytes: read.bytes, sha256: read.sha256, mode: read.mode, ...(read.text !== undefined ? { text: read.text } : {}) });
  }
  return refs;
}

interface ReadFile {
  readonly bytes: number;
  readonly sha256: string;
  readonly mode: number;
  readonly isText: boolean;
  /** The first characters (for a shebang). */
  readonly head: string;
  /** The whole text, for text files up to STREAM_BYTES. */
  readonly text?: string;
}

/** Whether at least 85% of the bytes are printable ASCII, tabs or line breaks (images and archives are far below). */
function mostlyPrintableAscii(bytes: Uint8Array): boolean {
  if (bytes.length === 0) return false;
  let printable = 0;
  for (const b of bytes) if ((b >= 0x20 && b < 0x7f) || b === 0x09 || b === 0x0a || b === 0x0d) printable++;
  return printable >= 0.85 * bytes.length;
}

/** A file's size, hash, permission bits and (when small) text; large files are streamed. */
function readFileForLibrary(abs: string): ReadFile {
  const fd = openRegular(abs);
  try {
    const st = fs.fstatSync(fd);
    const mode = st.mode & 0o777;
    if (st.size <= STREAM_BYTES) {
      const bytes = fs.readFileSync(fd);
      const isText = looksLikeText(bytes);
      // A file that is text but for a stray NUL or invalid byte is still read by an agent: its
      // text (invalid bytes as U+FFFD) is kept for the malicious-install scan, though it counts
      // as binary, so one byte does not hide a payload.
      const text = isText || mostlyPrintableAscii(bytes) ? new TextDecoder().decode(bytes) : undefined;
      return { bytes: bytes.length, sha256: sha256(bytes), mode, isText, head: text?.slice(0, 2) ?? '', ...(text !== undefined ? { text } : {}) };
    }
    const hash = createHash('sha256');
    const buffer = Buffer.allocUnsafe(1024 * 1024);
    let total = 0;
    let head: Buffer | null = null;
    for (;;) {
      const n = fs.readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      if (head === null) head = Buffer.from(buffer.subarray(0, Math.min(n, SNIFF_BYTES)));
      hash.update(buffer.subarray(0, n));
      total += n;
    }
    const sniff = head ?? Buffer.alloc(0);
    // A multi-byte character cut at the end of the sniffed bytes is not an invalid one.
    const isText = looksLikeText(trimPartialUtf8(sniff));
    return { bytes: total, sha256: hash.digest('hex'), mode, isText, head: isText ? new TextDecoder().decode(sniff.subarray(0, 8)).slice(0, 2) : '' };
  } finally {
    fs.closeSync(fd);
  }
}

/** The bytes without a trailing incomplete UTF-8 sequence. */
function trimPartialUtf8(b: Uint8Array): Uint8Array {
  let i = b.length;
  let k = 0;
  while (i > 0 && k < 4 && (b[i - 1]! & 0xc0) === 0x80) {
    i--;
    k++;
  }
  if (i > 0 && b[i - 1]! >= 0xc0) return b.subarray(0, i - 1);
  return b;
}

/** Whether a link at `relPath` (skill-relative) with this target points outside the skill folder. */
function leavesSkill(relPath: string, target: string): boolean {
  if (target === '' || target === '?' || path.posix.isAbsolute(target) || path.win32.isAbsolute(target)) return true;
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(relPath), target.replace(/\\/g, '/')));
  return resolved === '..' || resolved.startsWith('../');
}

function parentOf(rel: string): string {
  return rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '.';
}

function enclosingSkill(dir: string, skills: Set<string>): string | null {
  let d = dir;
  while (d !== '.' && d !== '') {
    const i = d.lastIndexOf('/');
    d = i < 0 ? '.' : d.slice(0, i);
    if (skills.has(d)) return d;
  }
  return null;
}

function readlinkSafe(abs: string): string {
  try {
    return fs.readlinkSync(abs);
  } catch {
    return '?';
  }
}
