/**
 * The only code that writes build output, and how it replaces an old dist without a moment where
 * neither the old nor the new one is whole:
 *
 * 1. the new dist is written into a sibling `.<name>.skillc-new-<pid>-<random>`, marked
 *    INCOMPLETE from its first moment (folders made with the umask; copied files keep the input's
 *    permission bits; large files are copied in chunks, never held in memory, with their SHA-256
 *    checked against the one taken when the library was read, so a file changed during the build
 *    fails it instead of slipping in);
 * 2. the old output, if any, is marked SET_ASIDE and renamed to `.<name>.skillc-old-<pid>-<random>`;
 * 3. the new one is renamed into place and its INCOMPLETE marker removed;
 * 4. the old one is marked DISCARD and removed, its marker last.
 *
 * A rename is atomic, so at every instant the output path holds the old or the new dist, except
 * between 2 and 3, when the old one is whole aside. A process killed outright (SIGKILL, power loss)
 * leaves siblings that the next build on the same output cleans up (recoverOutput), going by the
 * markers only, so a folder that merely has such a name is never touched: a partial new one is
 * removed, one being discarded is removed, and one set aside is put back if the output path is
 * empty. The write is synchronous on purpose: SIGINT and SIGTERM handlers, installed by the caller
 * around it, then run only after it, so an interrupt never lands mid-replace. A lock file next to
 * the output keeps two builds from replacing the same folder at once.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Artifact } from './artifacts.js';
import { SchemaViolationError } from './json-artifact.js';
import { DIST_ENTRIES } from './artifacts.js';
import { errnoText } from '../util/errno.js';
import { openRegular } from '../util/open-regular.js';
import type { PreparedDist } from './dist-folders.js';

/** A problem writing the output (permissions, space, a concurrent build): one line, exit 2. */
export class OutputWriteError extends Error {}
/** An input file whose bytes changed between reading the library and writing the dist. */
export class InputChangedError extends Error {}

const CHUNK = 1024 * 1024;
const ZEROS = Buffer.alloc(CHUNK);
/**
 * The one buffer copyVerified reads through (it is synchronous, so no two copies share it at once):
 * a buffer per copy was a megabyte of garbage per file, 5,600 of them in a dist of the corpora.
 */
const copyBuffer = Buffer.allocUnsafe(CHUNK);
/**
 * Written first into a new dist and removed just before it is renamed into place: a `new-` sibling
 * holding it is a partial dist of skillc's own, which recovery may remove. A folder that merely
 * has such a name (a library's own folder, say) is never touched.
 */
export const INCOMPLETE_MARKER = '.skillc-incomplete';
/**
 * Written into the old dist once it is set aside and the new one is in place, before anything of
 * it is deleted: an `old-` sibling holding it is being discarded, and recovery finishes removing
 * it rather than putting back what may be half of it.
 */
export const DISCARD_MARKER = '.skillc-discard';
/**
 * Written into the old dist just before it is renamed aside: an `old-` sibling holding it (and no
 * DISCARD_MARKER) is a whole previous output that the next build puts back if the new one never
 * arrived, whatever it is (a --force build may set aside a folder that is not a dist).
 */
export const SET_ASIDE_MARKER = '.skillc-set-aside';
/** The markers, which a dist folder may hold for a moment (see output-guard.ts distProblem). */
export const MARKERS: ReadonlySet<string> = new Set([INCOMPLETE_MARKER, DISCARD_MARKER, SET_ASIDE_MARKER]);

/**
 * Removes a folder skillc made, its marker file last: killed at any moment, what is left still
 * carries the marker, so the next build's recovery knows it for skillc's own.
 */
function removeMarkedTree(dir: string, marker: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) if (entry.name !== marker) removeEntry(path.join(dir, entry.name), entry.isDirectory());
  fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * Removes a file, or a folder with everything in it, going by the type its folder listing gave:
 * one listing and one lstat per folder and one unlink or rmdir per entry, where fs.rmSync also
 * stats every file and first tries each folder's rmdir while it still has entries (a dist of the
 * corpora, 6,700 files in 3,200 folders: about 350 against 540 ms). Whatever this walk cannot
 * remove (an entry replaced under it, a listing without types) is left to fs.rmSync.
 */
function removeEntry(p: string, isFolder: boolean): void {
  try {
    // A folder is looked at again right before it is read: one replaced by a link since its
    // parent was listed is removed as the link it now is, never followed.
    if (!isFolder || !fs.lstatSync(p).isDirectory()) {
      fs.unlinkSync(p);
      return;
    }
    for (const entry of fs.readdirSync(p, { withFileTypes: true })) removeEntry(path.join(p, entry.name), entry.isDirectory());
    fs.rmdirSync(p);
  } catch {
    fs.rmSync(p, { recursive: true, force: true });
  }
}

/** A name for a new dist beside the output `abs` (see the steps above). */
export function newSibling(abs: string): string {
  return sibling(abs, 'new');
}

/** Removes `dir` if it is a partial dist of this process's making (a folder holding INCOMPLETE_MARKER); quiet. */
export function removePartial(dir: string): void {
  try {
    if (isRealFolder(dir) && fs.existsSync(path.join(dir, INCOMPLETE_MARKER))) removeMarkedTree(dir, INCOMPLETE_MARKER);
  } catch {
    // Marked as partial: the next build's recovery removes it.
  }
}

function sibling(abs: string, kind: 'new' | 'old' | 'lock'): string {
  const base = `.${path.basename(abs)}.skillc-${kind}`;
  return path.join(path.dirname(abs), kind === 'lock' ? base : `${base}-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Cleans what an interrupted build left next to `outDir`; returns one line per action taken. Only
 * siblings of a process that is no longer running are touched.
 */
export function recoverOutput(outDir: string): string[] {
  const abs = path.resolve(outDir);
  const parent = path.dirname(abs);
  const prefix = `.${path.basename(abs)}.skillc-`;
  let names: string[];
  try {
    names = fs.readdirSync(parent);
  } catch {
    return [];
  }
  const said: string[] = [];
  const lockFile = path.join(parent, `${prefix}lock`);
  const lockPid = Number.parseInt(readSmall(lockFile), 10);
  // A build that is running owns everything here.
  if (Number.isInteger(lockPid) && lockPid > 0 && alive(lockPid)) return said;
  // Markers left in the output itself by a build killed next to a rename: the folder is whole.
  for (const marker of [INCOMPLETE_MARKER, SET_ASIDE_MARKER]) {
    try {
      if (fs.lstatSync(path.join(abs, marker)).isFile()) fs.unlinkSync(path.join(abs, marker));
    } catch {
      // None there.
    }
  }
  const pattern = /^(new|old)-(\d+)-[0-9a-f]{8}$/;
  for (const name of names.sort()) {
    if (!name.startsWith(prefix)) continue;
    if (name === `${prefix}lock`) {
      const lock = path.join(parent, name);
      const pid = Number.parseInt(readSmall(lock), 10);
      if (!(Number.isInteger(pid) && pid > 0 && alive(pid))) {
        try {
          fs.unlinkSync(lock);
          said.push(`removed ${name}, the lock of an interrupted build`);
        } catch (err) {
          said.push(`could not remove ${name}, the lock of an interrupted build: ${errnoText(err)}`);
        }
      }
      continue;
    }
    const m = pattern.exec(name.slice(prefix.length));
    if (!m || alive(Number(m[2]))) continue;
    const p = path.join(parent, name);
    // Only what skillc provably made: each kind of leftover carries its marker (see above).
    if (!isRealFolder(p)) continue;
    const has = (marker: string) => fs.existsSync(path.join(p, marker));
    const partial = m[1] === 'new' && has(INCOMPLETE_MARKER);
    const discarded = m[1] === 'old' && has(DISCARD_MARKER);
    const setAside = m[1] === 'old' && !discarded && has(SET_ASIDE_MARKER);
    if (!partial && !discarded && !setAside) continue;
    try {
      if (setAside && !fs.existsSync(abs)) {
        fs.renameSync(p, abs);
        fs.unlinkSync(path.join(abs, SET_ASIDE_MARKER));
        said.push(`restored ${outDir} from ${name}, the previous output an interrupted build had set aside`);
      } else {
        if (setAside) fs.writeFileSync(path.join(p, DISCARD_MARKER), `${process.pid}\n`);
        removeMarkedTree(p, partial ? INCOMPLETE_MARKER : DISCARD_MARKER);
        said.push(`removed ${name}, left by an interrupted build`);
      }
    } catch (err) {
      said.push(`could not clean up ${name}: ${errnoText(err)}`);
    }
  }
  return said;
}

/** lstat: a link named like a leftover is not followed. */
function isRealFolder(p: string): boolean {
  try {
    return fs.lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Writes the dist; returns warnings about what could not be tidied after the new dist was in place
 * (the previous dist set aside that could not be removed): the build succeeded, but the user
 * should know what is left next to the output.
 */
export interface WriteOptions {
  /** Artifact path → a file of the old output with exactly these bytes, to hard-link instead of writing. */
  readonly linkFrom?: ReadonlyMap<string, string>;
  /** Filled with the SHA-256 of every file written from content (hashed as it is written). */
  readonly digests?: Map<string, string>;
  /** Asked right before each link: is the old file still the one the caller checked? If not, it is written. */
  readonly stillSame?: (artifactPath: string, from: string) => boolean;
  /**
   * Run once the new output is in place and the old one removed, while the output's lock is still
   * held (so no other build can replace the output before it returns): the build record is taken here.
   */
  readonly beforeUnlock?: () => void;
  /**
   * A new dist folder made beforehand with some of its folders (emit/dist-folders.ts), written
   * into instead of a new one; it is used only if it is still a partial dist (its marker there).
   */
  readonly prepared?: PreparedDist | null;
}

export function writeDist(outDir: string, artifacts: readonly Artifact[], options: WriteOptions = {}): string[] {
  const linkFrom = options.linkFrom ?? new Map<string, string>();
  const abs = path.resolve(outDir);
  for (const a of artifacts) {
    if (!DIST_ENTRIES.has(a.path.split('/')[0]!)) throw new Error(`internal: artifact ${a.path} is outside the entries a dist may hold (emit/artifacts.ts DIST_ENTRIES)`);
  }
  const io = <T>(what: string, p: string, f: () => T): T => {
    try {
      return f();
    } catch (err) {
      if (err instanceof InputChangedError || err instanceof OutputWriteError || err instanceof SchemaViolationError) throw err;
      throw new OutputWriteError(`cannot ${what} ${p}: ${errnoText(err)}`);
    }
  };
  const prepared = options.prepared;
  const lock = sibling(abs, 'lock');
  try {
    io('create the folder', path.dirname(abs), () => fs.mkdirSync(path.dirname(abs), { recursive: true }));
    takeLock(lock, outDir);
  } catch (err) {
    // Another build holds the output (or its folder cannot be made): the new dist made beforehand goes too.
    if (prepared) removePartial(prepared.dist);
    throw err;
  }
  const usePrepared = prepared !== undefined && prepared !== null && path.dirname(prepared.dist) === path.dirname(abs) && isRealFolder(prepared.dist) && fs.existsSync(path.join(prepared.dist, INCOMPLETE_MARKER));
  if (prepared && !usePrepared) removePartial(prepared.dist);
  const tmp = usePrepared ? prepared.dist : sibling(abs, 'new');
  let aside: string | null = null;
  try {
    if (!usePrepared) {
      io('create the folder', tmp, () => fs.mkdirSync(tmp));
      io('write', path.join(tmp, INCOMPLETE_MARKER), () => fs.writeFileSync(path.join(tmp, INCOMPLETE_MARKER), `${process.pid}\n`, { flag: 'wx' }));
    }
    const premade = usePrepared ? prepared.folders.map((f) => path.join(tmp, ...f.split('/'))) : [];
    // Files copied beforehand, until each is found to be the artifact of its path (or removed).
    const precopied = new Map(usePrepared ? prepared.copies : []);
    const made = new Set<string>([tmp, ...premade]);
    // Folders that hold some file (or link) of the dist, with their ancestors: a folder made
    // beforehand that is not one of them is removed below.
    const holding = new Set<string>();
    for (const a of artifacts) {
      const target = path.join(tmp, ...a.path.split('/'));
      const dir = path.dirname(target);
      if (premade.length > 0) for (let d = dir; d !== tmp && !holding.has(d); d = path.dirname(d)) holding.add(d);
      if (!made.has(dir)) {
        io('create the folder', dir, () => fs.mkdirSync(dir, { recursive: true }));
        made.add(dir);
      }
      const copied = precopied.get(a.path);
      if (copied !== undefined) {
        precopied.delete(a.path);
        if ('copyFrom' in a && a.copyFrom === copied.copyFrom && a.sha256 === copied.sha256 && a.mode === copied.mode) continue;
        io('remove', target, () => fs.unlinkSync(target));
      }
      // A file the last build wrote with these very bytes (the caller checked its hash and stat):
      // linked, not written again. Where links cannot be made, it is written as usual.
      const old = linkFrom.get(a.path);
      if (old !== undefined && (options.stillSame?.(a.path, old) ?? true) && linkQuietly(old, target)) continue;
      if ('content' in a) {
        const digest = io('write', target, () => writeContent(target, a.content));
        options.digests?.set(a.path, digest);
        if (a.mode !== undefined) io('set the mode of', target, () => fs.chmodSync(target, a.mode! & 0o777));
      } else if ('symlink' in a) {
        io('create the link', target, () => fs.symlinkSync(a.symlink, target));
      } else {
        copyVerified(a.copyFrom, target, a.sha256, a.mode);
      }
    }
    // Copies of no artifact, then (deepest first) folders made for nothing.
    for (const p of precopied.keys()) io('remove', p, () => fs.unlinkSync(path.join(tmp, ...p.split('/'))));
    for (const dir of [...premade].reverse()) if (!holding.has(dir)) io('remove the folder', dir, () => fs.rmdirSync(dir));
    if (fs.existsSync(abs)) {
      const old = sibling(abs, 'old');
      io('mark the old output at', abs, () => fs.writeFileSync(path.join(abs, SET_ASIDE_MARKER), `${process.pid}\n`));
      io('move aside the old output', abs, () => fs.renameSync(abs, old));
      aside = old;
    }
    io('move the new output into place at', abs, () => fs.renameSync(tmp, abs));
    // From here the new dist is in place: what follows is tidying, never a reason to fail.
    removeQuietly(path.join(abs, INCOMPLETE_MARKER));
  } catch (err) {
    try {
      removeMarkedTree(tmp, INCOMPLETE_MARKER);
    } catch {
      // Marked as partial: the next build's recovery removes it.
    }
    // Put the old output back if it was set aside and the new one never arrived.
    if (aside && !fs.existsSync(abs)) {
      try {
        fs.renameSync(aside, abs);
        removeQuietly(path.join(abs, SET_ASIDE_MARKER));
      } catch {
        // Left aside, marked; the next build's recoverOutput puts it back.
      }
    } else if (!aside) {
      removeQuietly(path.join(abs, SET_ASIDE_MARKER));
    }
    removeQuietly(lock);
    throw err;
  }
  const warnings: string[] = [];
  if (aside) {
    try {
      fs.writeFileSync(path.join(aside, DISCARD_MARKER), `${process.pid}\n`);
      removeMarkedTree(aside, DISCARD_MARKER);
    } catch (err) {
      warnings.push(`the new dist is in place, but the previous one, set aside at ${aside}, could not be removed (${errnoText(err)}); remove it by hand`);
    }
  }
  try {
    options.beforeUnlock?.();
  } finally {
    removeQuietly(lock);
  }
  return warnings;
}

function linkQuietly(from: string, to: string): boolean {
  try {
    fs.linkSync(from, to);
    return true;
  } catch {
    return false;
  }
}

function removeQuietly(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch {
    // A lock that cannot be removed is stale once this process ends; the next build says so.
  }
}

/** A new file with the content, given whole or as pieces written one after another; returns its SHA-256. */
function writeContent(target: string, content: string | Uint8Array | Iterable<string>): string {
  const hash = crypto.createHash('sha256');
  // Text is encoded once, and the same bytes are written and hashed (each would encode it again).
  if (typeof content === 'string' || content instanceof Uint8Array) {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    fs.writeFileSync(target, bytes, { flag: 'wx' });
    return hash.update(bytes).digest('hex');
  }
  const fd = fs.openSync(target, 'wx');
  try {
    // Pieces are encoded into a buffer and written a chunk at a time. A UTF-16 code unit takes at
    // most 3 bytes of UTF-8 (a lone surrogate becomes U+FFFD, as Buffer.from writes it), so a
    // piece that fits by that measure fits whole; a larger one is encoded on its own.
    const buffer = Buffer.allocUnsafe(CHUNK);
    let used = 0;
    const emit = (bytes: Uint8Array) => {
      for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes, at, bytes.length - at);
      hash.update(bytes);
    };
    for (const piece of content) {
      if (piece.length * 3 > CHUNK - used) {
        if (used > 0) emit(buffer.subarray(0, used));
        used = 0;
        if (piece.length * 3 > CHUNK) {
          emit(Buffer.from(piece, 'utf8'));
          continue;
        }
      }
      used += buffer.write(piece, used, 'utf8');
    }
    if (used > 0) emit(buffer.subarray(0, used));
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

function takeLock(lock: string, outDir: string): void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lock, `${process.pid}\n`, { flag: 'wx' });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new OutputWriteError(`cannot create ${lock}: ${errnoText(err)}`);
      const pid = Number.parseInt(readSmall(lock), 10);
      if (Number.isInteger(pid) && pid > 0 && alive(pid)) throw new OutputWriteError(`another skillc build (process ${pid}) is writing ${outDir}; wait for it, or remove ${lock} if that process is not skillc`);
      try {
        fs.unlinkSync(lock);
      } catch (e) {
        throw new OutputWriteError(`cannot remove the stale lock ${lock}: ${errnoText(e)}`);
      }
    }
  }
  throw new OutputWriteError(`cannot take the lock ${lock}`);
}

function readSmall(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').slice(0, 32);
  } catch {
    return '';
  }
}

/**
 * Copies `from` to a new file `to` in fixed-size chunks, hashing as it reads; fails with
 * InputChangedError when the bytes are not the ones the build read. All-zero chunks are skipped
 * (the file is then extended to its size), so a sparse input stays sparse in the dist.
 */
export function copyVerified(from: string, to: string, sha256: string, mode: number | undefined): void {
  let input: number;
  try {
    input = openRegular(from);
  } catch (err) {
    throw new InputChangedError(`${from} changed while the build was running (${errnoText(err)}); build again`);
  }
  let output: number | undefined;
  try {
    try {
      output = fs.openSync(to, 'wx');
    } catch (err) {
      throw new OutputWriteError(`cannot write ${to}: ${errnoText(err)}`);
    }
    const hash = crypto.createHash('sha256');
    const buffer = copyBuffer;
    let position = 0;
    for (;;) {
      const n = fs.readSync(input, buffer, 0, CHUNK, null);
      if (n === 0) break;
      const chunk = buffer.subarray(0, n);
      hash.update(chunk);
      if (!chunk.equals(ZEROS.subarray(0, n))) {
        try {
          fs.writeSync(output, chunk, 0, n, position);
        } catch (err) {
          throw new OutputWriteError(`cannot write ${to}: ${errnoText(err)}`);
        }
      }
      position += n;
    }
    if (hash.digest('hex') !== sha256) throw new InputChangedError(`${from} changed while the build was running; build again`);
    try {
      fs.ftruncateSync(output, position);
      // The input's permission bits exactly (an executable script stays executable), never setuid/setgid/sticky.
      if (mode !== undefined) fs.fchmodSync(output, mode & 0o777);
    } catch (err) {
      throw new OutputWriteError(`cannot write ${to}: ${errnoText(err)}`);
    }
  } finally {
    fs.closeSync(input);
    if (output !== undefined) fs.closeSync(output);
  }
}
