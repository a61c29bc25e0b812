/**
 * Reads of files inside a built dist (graph.json, bundles, candidates.json, manifest.json,
 * contracts). A dist is input like any other: it may have been copied from elsewhere, hand-edited
 * or damaged, and the paths it names (graph.json's `bundle` of each skill, a contract id in
 * candidates.json) are data, not trusted locations. Every such read goes through `readDistFile`,
 * which refuses, with a DistReadError whose one-line message names the path and why:
 *
 * - a path that is not a plain relative path (empty, absolute, a `..` segment, a NUL);
 * - a path whose real location (symbolic links resolved) is outside the dist's real location;
 * - anything but a regular file (a folder, a FIFO, a socket, a device): opened without blocking
 *   and checked with fstat on the descriptor, so a FIFO cannot stall the read;
 * - a file over the caller's byte limit: at most limit + 1 bytes are read, so a file that grows
 *   while it is read (or reports a wrong size) is caught too.
 *
 * readRegularFile gives files a user or a repository names (a lint configuration, a policy, a
 * reply-cache entry) the same type and size checks, without the confinement.
 *
 * Symbolic links that stay inside the dist are read: the build copies a skill's own links
 * verbatim, and such a link exposes nothing graph.json could not name directly. Only what a link
 * resolves to at read time is checked; a dist that is being changed while it is read (a link
 * swapped between the check and the open) is not defended against beyond O_NOFOLLOW on the last
 * component.
 */
import fs from 'node:fs';
import path from 'node:path';
import { errnoText } from './errno.js';

/**
 * A bundle (or a SKILL.md read as one). The build reads a SKILL.md of up to 32 MiB, and a bundle
 * adds its actions and contracts to the skeleton, so anything a build writes fits twice over;
 * still far below what hurts a process.
 */
export const MAX_BUNDLE_BYTES = 64 * 1024 * 1024;
/**
 * graph.json, candidates.json and the other JSON documents: the whole corpus (2,268 skills) makes
 * 8.6 MB and 8.3 MB. Kept under V8's longest string (just under 512 MiB), which the text must fit.
 */
export const MAX_INDEX_BYTES = 256 * 1024 * 1024;

export type DistReadProblem = 'not-relative' | 'outside' | 'missing' | 'folder' | 'not-a-file' | 'too-large' | 'unreadable';

export class DistReadError extends Error {
  constructor(
    message: string,
    readonly problem: DistReadProblem,
    /** The dist-relative path as it was asked for. */
    readonly rel: string,
  ) {
    super(message);
  }
}

export interface DistReadOptions {
  /** Refuse files larger than this. */
  readonly maxBytes: number;
  /**
   * Where the path came from, for the message: with it a problem reads "graph.json names bundle
   * ../x for skill:a, which is outside the dist"; without it, "<dist>/graph.json is a folder".
   */
  readonly namedBy?: { readonly file: string; readonly what: string; readonly owner?: string };
}

const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;

/** The bytes of `rel` inside `dist`, or a DistReadError. */
export function readDistFile(dist: string, rel: string, options: DistReadOptions): Buffer {
  const { real, fail } = resolveInDist(dist, rel, options);
  return readOpened(real, options.maxBytes, fail);
}

/** A file of the dist held open for reads by byte range: what it was when opened, whatever renames follow. */
export interface DistFile {
  readonly size: number;
  /** `length` bytes from `offset`; a range past the end is a DistReadError ('unreadable'). */
  read(offset: number, length: number): Buffer;
  close(): void;
}

/**
 * Opens `rel` inside `dist` with the checks of readDistFile (confined, a regular file, at most
 * `maxBytes`) and keeps the descriptor: reads by byte range then come from this file even when a
 * build replaces the dist (a rename leaves the open file as it was), so an index read in several
 * parts is read from one build.
 */
export function openDistFile(dist: string, rel: string, options: DistReadOptions): DistFile {
  const { real, fail } = resolveInDist(dist, rel, options);
  const { fd, size } = withRegularFile(real, options.maxBytes, fail, true, (fd, size) => ({ fd, size }), true);
  let open = true;
  return {
    size,
    read(offset, length) {
      if (!open) throw new DistReadError(`${path.join(dist, rel)} was closed`, 'unreadable', rel);
      try {
        return readRange(fd, size, offset, length, fail);
      } catch (err) {
        // As readDistFile: an I/O error is a DistReadError naming the file, not a crash.
        if (err instanceof DistReadError) throw err;
        return fail('unreadable', `cannot be read (${errnoText(err)})`);
      }
    },
    close() {
      if (open) fs.closeSync(fd);
      open = false;
    },
  };
}

function readRange(fd: number, size: number, offset: number, length: number, fail: (problem: DistReadProblem, why: string) => never): Buffer {
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || offset + length > size) {
    return fail('unreadable', `has ${size} bytes, too few for bytes ${offset}..${offset + length} that the index names`);
  }
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = fs.readSync(fd, buf, got, length - got, offset + got);
    if (n === 0) return fail('unreadable', `ended before byte ${offset + length} that the index names`);
    got += n;
  }
  return buf;
}

function resolveInDist(dist: string, rel: string, options: DistReadOptions): { real: string; fail: (problem: DistReadProblem, why: string) => never } {
  const fail = (problem: DistReadProblem, why: string): never => {
    const n = options.namedBy;
    const subject = n ? `${n.file} names ${n.what} ${rel}${n.owner ? ` for ${n.owner}` : ''}, which` : path.join(dist, rel);
    throw new DistReadError(`${subject} ${why}`, problem, rel);
  };
  const segments = plainSegments(rel);
  if (segments === 'absolute') return fail('outside', 'is outside the dist (an absolute path)');
  if (segments === 'parent') return fail('outside', 'is outside the dist');
  if (segments === null) return fail('not-relative', 'is not a plain relative path');

  let root: string;
  try {
    root = fs.realpathSync(dist);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new DistReadError(code === 'ENOENT' || code === 'ENOTDIR' ? `${dist} does not exist` : `${dist} cannot be read (${code ?? String(err)})`, code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'unreadable', rel);
  }
  let real: string;
  try {
    real = fs.realpathSync(path.join(root, ...segments));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return fail('missing', 'does not exist');
    if (code === 'ELOOP') return fail('unreadable', 'is a loop of symbolic links');
    return fail('unreadable', `cannot be read (${code ?? String(err)})`);
  }
  const inside = path.relative(root, real);
  if (inside === '') return fail('folder', 'is a folder, not a file');
  if (inside === '..' || inside.startsWith(`..${path.sep}`) || path.isAbsolute(inside)) return fail('outside', 'leads outside the dist through a symbolic link');
  return { real, fail };
}

/**
 * A regular file of at most `maxBytes`, for files a user or a repository names (a configuration,
 * a policy, a cache entry): the same checks as a dist read without the confinement, so a FIFO, a
 * device such as /dev/zero or a huge file is a clear error instead of a hang or an exhausted heap.
 * Symbolic links are followed (a user may link a shared configuration).
 */
export function readRegularFile(file: string, maxBytes: number): Buffer {
  return readOpened(file, maxBytes, (problem, why) => {
    throw new DistReadError(`${file} ${why}`, problem, file);
  }, false);
}

function readOpened(real: string, maxBytes: number, fail: (problem: DistReadProblem, why: string) => never, noFollow = true): Buffer {
  return withRegularFile(real, maxBytes, fail, noFollow, (fd, size) => {
    const bytes = readAtMost(fd, size, maxBytes + 1);
    if (bytes.length > maxBytes) return fail('too-large', `is larger than ${formatBytes(maxBytes)}`);
    return bytes;
  });
}

/** Opens `real` as a regular file of at most `maxBytes` (by fstat) and hands the descriptor to `read`. */
function withRegularFile<T>(real: string, maxBytes: number, fail: (problem: DistReadProblem, why: string) => never, noFollow: boolean, read: (fd: number, size: number) => T, keepOpen = false): T {
  let fd: number;
  let kept = false;
  try {
    // Non-blocking: opening a FIFO for reading would otherwise wait for a writer forever.
    fd = fs.openSync(real, fs.constants.O_RDONLY | (noFollow ? O_NOFOLLOW : 0) | O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EISDIR') return fail('folder', 'is a folder, not a file');
    if (code === 'ELOOP') return fail('outside', noFollow ? 'became a symbolic link while it was read' : 'is a loop of symbolic links');
    if (code === 'ENOENT') return fail('missing', 'does not exist');
    return fail('unreadable', `cannot be read (${errnoText(err)})`);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (stat.isDirectory()) return fail('folder', 'is a folder, not a file');
    if (!stat.isFile()) return fail('not-a-file', 'is not a regular file (a FIFO, socket or device)');
    if (stat.size > maxBytes) return fail('too-large', `is larger than ${formatBytes(maxBytes)} (${stat.size} bytes)`);
    const result = read(fd, stat.size);
    kept = keepOpen;
    return result;
  } catch (err) {
    if (err instanceof DistReadError) throw err;
    return fail('unreadable', `cannot be read (${errnoText(err)})`);
  } finally {
    // Kept open only when the caller asked and everything succeeded; it closes it then.
    if (!kept) fs.closeSync(fd);
  }
}

/**
 * The path's segments when it is a plain relative POSIX path; 'absolute' or 'parent' when it
 * points elsewhere by itself; null when it is empty or holds a NUL. On Windows a backslash
 * separates too, so `..\x` is caught as well.
 */
function plainSegments(rel: string): string[] | 'absolute' | 'parent' | null {
  if (typeof rel !== 'string' || rel === '' || rel.includes('\0')) return null;
  if (path.posix.isAbsolute(rel) || path.win32.isAbsolute(rel)) return 'absolute';
  const segments = rel.split(process.platform === 'win32' ? /[\\/]/ : '/');
  if (segments.includes('..')) return 'parent';
  return segments.filter((s) => s !== '' && s !== '.');
}

/** Reads until end of file or until `limit` bytes are in; the size from fstat is only a first guess. */
function readAtMost(fd: number, sizeHint: number, limit: number): Buffer {
  let buf = Buffer.allocUnsafe(Math.min(Math.max(sizeHint + 1, 64 * 1024), limit));
  let length = 0;
  for (;;) {
    if (length === buf.length) {
      if (buf.length >= limit) break;
      const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, limit));
      buf.copy(bigger, 0, 0, length);
      buf = bigger;
    }
    const n = fs.readSync(fd, buf, length, buf.length - length, null);
    if (n === 0) break;
    length += n;
  }
  return buf.subarray(0, length);
}

function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : `${n} bytes`;
}
