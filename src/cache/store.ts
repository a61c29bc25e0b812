/**
 * The build cache on disk: content-addressed entries under `<dir>/<namespace>/<k0k1>/<key>`.
 * Keys are SHA-256 hashes of everything the cached value depends on (see keys.ts), so an entry
 * is never invalidated, only left unused; a changed input simply asks for another key.
 *
 * A cache folder is input like any other: shared between builds, copied between machines, or
 * tampered with. So an entry is never trusted as found:
 * - it carries a header naming its namespace and key, and the SHA-256 and length of its payload;
 *   an entry whose header does not match what was asked for (foreign), or whose payload does not
 *   hash to what the header says (truncated, corrupt), is a miss and is rebuilt;
 * - it is read through readRegularFile (no FIFOs, no links followed, a size limit);
 * - it is written to a temporary file and renamed into place, so concurrent builds sharing a
 *   cache only ever see whole entries (the last rename wins, and both wrote the same bytes).
 *
 * A cache that cannot be written or read costs time on the next build, never a build's result:
 * every failure here is a miss.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { readRegularFile } from '../util/confined-read.js';
import { errnoText } from '../util/errno.js';

/** The first line of every entry (then a JSON header line, then the payload). */
const MAGIC = 'skillc-cache 1\n';
/** A cached parse of the largest SKILL.md the build reads (32 MiB) stays below this. */
const MAX_ENTRY_BYTES = 512 * 1024 * 1024;
const KEY = /^[0-9a-f]{64}$/;

interface EntryHeader {
  readonly namespace: string;
  readonly key: string;
  readonly bytes: number;
  readonly sha256: string;
}

export interface CacheStats {
  hits: number;
  misses: number;
  writes: number;
  /** Entries found but refused (foreign, truncated or corrupt). */
  rejected: number;
  /** Entries that could not be written, and why the first one could not. */
  writeFailures: number;
  firstWriteError?: string;
}

export class CacheStore {
  readonly stats: CacheStats = { hits: 0, misses: 0, writes: 0, rejected: 0, writeFailures: 0 };

  /** @param dir the cache folder (absolute) */
  constructor(readonly dir: string) {}

  private file(namespace: string, key: string): string {
    return path.join(this.dir, namespace, key.slice(0, 2), key);
  }

  /** The payload stored under (namespace, key), or undefined when absent or not to be trusted. */
  get(namespace: string, key: string): Uint8Array | undefined {
    if (!KEY.test(key)) throw new Error(`internal: cache key ${key} is not a SHA-256 hash`);
    let raw: Uint8Array;
    try {
      raw = readRegularFile(this.file(namespace, key), MAX_ENTRY_BYTES);
    } catch {
      this.stats.misses++;
      return undefined;
    }
    const payload = verifyEntry(raw, namespace, key);
    if (payload === undefined) {
      this.stats.rejected++;
      this.stats.misses++;
      return undefined;
    }
    this.stats.hits++;
    return payload;
  }

  put(namespace: string, key: string, payload: Uint8Array): void {
    if (!KEY.test(key)) throw new Error(`internal: cache key ${key} is not a SHA-256 hash`);
    const file = this.file(namespace, key);
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    const header: EntryHeader = { namespace, key, bytes: payload.byteLength, sha256: createHash('sha256').update(payload).digest('hex') };
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const fd = fs.openSync(tmp, 'wx');
      try {
        fs.writeSync(fd, `${MAGIC}${JSON.stringify(header)}\n`);
        fs.writeSync(fd, payload);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(tmp, file);
      this.stats.writes++;
    } catch (err) {
      this.stats.writeFailures++;
      this.stats.firstWriteError ??= errnoText(err);
      try {
        fs.rmSync(tmp, { force: true });
      } catch {
        // Nothing was made, or it cannot be removed either: a stray .tmp file is never read.
      }
    }
  }
}

/** The payload of a raw entry if its header is the one asked for and the payload is whole. */
export function verifyEntry(raw: Uint8Array, namespace: string, key: string): Uint8Array | undefined {
  const magic = Buffer.from(MAGIC);
  const buf = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  if (buf.length < magic.length || !buf.subarray(0, magic.length).equals(magic)) return undefined;
  const eol = buf.indexOf(10, magic.length);
  if (eol < 0 || eol - magic.length > 4096) return undefined;
  let header: EntryHeader;
  try {
    header = JSON.parse(buf.subarray(magic.length, eol).toString('utf8')) as EntryHeader;
  } catch {
    return undefined;
  }
  if (header === null || typeof header !== 'object' || header.namespace !== namespace || header.key !== key) return undefined;
  const payload = buf.subarray(eol + 1);
  if (payload.length !== header.bytes) return undefined;
  if (createHash('sha256').update(payload).digest('hex') !== header.sha256) return undefined;
  return payload;
}
