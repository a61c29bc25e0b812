/**
 * What the cache remembers of the last build into an output folder: the build's key (a hash of
 * the code, the options and every input), what it printed (its diagnostics and summary lines),
 * and every file it wrote with the file's hash and the stat it had right after the write.
 *
 * Two uses:
 * - a rebuild whose key is the same, into a folder that still holds exactly those files with
 *   those stats, is up to date: nothing is parsed, mined or written, and the output folder is
 *   left untouched (its diagnostics are printed again, so --strict exits as it did);
 * - any other rebuild may hard-link, from the old output into the new one, each file whose bytes
 *   it would write again, when the old file still has the stat recorded for it (a file edited in
 *   place by hand changes its mtime or size, and is written afresh).
 *
 * The record is an entry of the cache store, so a damaged or foreign record is simply absent.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CacheStore } from './store.js';
import { cacheKeyOf } from './keys.js';
import type { Diagnostic } from '../ir/diagnostics.js';

const NAMESPACE = 'build';

export interface RecordedFile {
  readonly path: string;
  /** 'file' or a symbolic link (whose target is compared instead of a hash). */
  readonly type: 'file' | 'link';
  readonly sha256: string;
  /** The artifact's content key, when it had one (json-artifact.ts). */
  readonly contentKey?: string;
  /** The artifact's requested mode (null: the default), so a reused file has the mode a write would give. */
  readonly wantMode: number | null;
  readonly size: number;
  readonly mtimeMs: number;
  /** ctime too: an edit in place that puts the mtime back (touch -r, cp -p, rsync -t) still moves it. */
  readonly ctimeMs: number;
  readonly ino: number;
  readonly mode: number;
}

export interface BuildRecord {
  readonly buildKey: string;
  readonly files: readonly RecordedFile[];
  readonly diagnostics: readonly Diagnostic[];
  /** The summary lines the build printed (without its timing). */
  readonly summary: readonly string[];
  /** The build's exit code before --strict (0, or 3 when a pass failed). */
  readonly exitCode: number;
}

function recordKey(outAbs: string): string {
  return cacheKeyOf(NAMESPACE, { out: outAbs });
}

export function readBuildRecord(cache: CacheStore, outAbs: string): BuildRecord | undefined {
  const payload = cache.get(NAMESPACE, recordKey(outAbs));
  if (!payload) return undefined;
  try {
    const r = JSON.parse(Buffer.from(payload).toString('utf8')) as BuildRecord;
    return isBuildRecord(r) ? r : undefined;
  } catch {
    return undefined;
  }
}

/** Every field of a record has its type (an entry is whole by its hash, but may have been written by anyone). */
function isBuildRecord(r: unknown): r is BuildRecord {
  if (r === null || typeof r !== 'object') return false;
  const x = r as Record<string, unknown>;
  const num = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
  const str = (v: unknown) => typeof v === 'string';
  const file = (f: unknown) => {
    if (f === null || typeof f !== 'object') return false;
    const y = f as Record<string, unknown>;
    return str(y.path) && (y.type === 'file' || y.type === 'link') && str(y.sha256) && (y.contentKey === undefined || str(y.contentKey)) && (y.wantMode === null || num(y.wantMode)) && [y.size, y.mtimeMs, y.ctimeMs, y.ino, y.mode].every(num);
  };
  const diagnostic = (d: unknown) => {
    if (d === null || typeof d !== 'object') return false;
    const y = d as Record<string, unknown>;
    return str(y.code) && str(y.file) && str(y.message) && (y.severity === 'error' || y.severity === 'warning' || y.severity === 'info');
  };
  return str(x.buildKey) && Array.isArray(x.files) && x.files.every(file) && Array.isArray(x.diagnostics) && x.diagnostics.every(diagnostic) && Array.isArray(x.summary) && x.summary.every(str) && (x.exitCode === 0 || x.exitCode === 3);
}

export function writeBuildRecord(cache: CacheStore, outAbs: string, record: BuildRecord): void {
  cache.put(NAMESPACE, recordKey(outAbs), Buffer.from(JSON.stringify(record), 'utf8'));
}

export interface FileStat {
  readonly type: 'file' | 'link';
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly ino: number;
  readonly mode: number;
  readonly uid: number;
}

export function fileStatOf(st: fs.Stats): FileStat | null {
  const type = st.isFile() ? 'file' : st.isSymbolicLink() ? 'link' : null;
  return type === null ? null : { type, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, mode: st.mode & 0o7777, uid: st.uid };
}

/** Every file and link below `dir` (POSIX relative paths) with its stat; null when `dir` cannot be read. */
export function statTree(dir: string): Map<string, FileStat> | null {
  const out = new Map<string, FileStat>();
  const walk = (abs: string, rel: string): boolean => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      return false;
    }
    for (const e of entries) {
      const a = path.join(abs, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!walk(a, r)) return false;
        continue;
      }
      let st: fs.Stats;
      try {
        st = fs.lstatSync(a);
      } catch {
        return false;
      }
      // Anything but a file or a link (a FIFO someone put there) makes the folder not ours as recorded.
      const fst = fileStatOf(st);
      if (fst === null) return false;
      out.set(r, fst);
    }
    return true;
  };
  return walk(dir, '') ? out : null;
}

export function sameStat(f: RecordedFile, st: FileStat | undefined | null): boolean {
  return st != null && st.type === f.type && st.size === f.size && st.mtimeMs === f.mtimeMs && st.ctimeMs === f.ctimeMs && st.ino === f.ino && st.mode === f.mode;
}

/** Whether the old output's file at `abs` still has the recorded stat (checked again right before it is linked). */
export function stillRecorded(abs: string, f: RecordedFile): boolean {
  try {
    return sameStat(f, fileStatOf(fs.lstatSync(abs)));
  } catch {
    return false;
  }
}

/** True when `dir` holds exactly the recorded files, each with its recorded stat. */
export function treeMatches(dir: string, record: BuildRecord): boolean {
  const tree = statTree(dir);
  if (!tree || tree.size !== record.files.length) return false;
  return record.files.every((f) => sameStat(f, tree.get(f.path)));
}

/**
 * The old output's files that may be linked into the new one: path → recorded file, for each
 * file still holding its recorded stat and owned by the user running this build (a link to
 * someone else's file would not be the file a write makes). Checked here, and again right before
 * each link.
 */
export function reusableFiles(dir: string, record: BuildRecord | undefined): Map<string, RecordedFile> {
  const out = new Map<string, RecordedFile>();
  if (!record) return out;
  const tree = statTree(dir);
  if (!tree) return out;
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  for (const f of record.files) {
    const st = tree.get(f.path);
    if (f.type === 'file' && sameStat(f, st) && (uid === undefined || st!.uid === uid)) out.set(f.path, f);
  }
  return out;
}
