/**
 * The on-disk reply cache: content-addressed by a hash of (model, prompt name and version, the
 * prompt text, the reply schema, the request). A rebuild of an unchanged library therefore makes no
 * model calls, and a changed skill only misses for the requests whose text it changed. Entries are
 * written atomically (temporary file, then rename), so parallel builds sharing a cache never see a
 * half-written entry; an unreadable entry is a miss. Only replies that parse as JSON are stored:
 * each is validated again on every read, so a stricter checker re-judges old replies.
 *
 * This store is not an artifact of the build: it lives outside dist/ and is owned by the model
 * service, the one component besides emit that touches the file system.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readRegularFile } from '../util/confined-read.js';
import { sha256 } from '../util/hash.js';
import { stableStringify } from '../util/stable-json.js';

/** A cached reply is a model's answer to one request: kilobytes. */
const MAX_ENTRY_BYTES = 16 * 1024 * 1024;

export interface CachedReply {
  readonly key: string;
  readonly model: string;
  readonly prompt: string;
  readonly content: string;
  readonly promptTokens: number;
  readonly completionTokens: number;
}

export interface CacheKeyParts {
  readonly model: string;
  readonly prompt: string;
  readonly version: number;
  readonly system: string;
  readonly schema: unknown;
  readonly user: string;
}

export function cacheKey(parts: CacheKeyParts): string {
  return sha256(stableStringify(parts, 0));
}

export class ReplyCache {
  /** @param dir the cache folder (replies go under dir/llm/), or null for no cache. */
  constructor(readonly dir: string | null) {}

  private file(key: string): string {
    return path.join(this.dir!, 'llm', key.slice(0, 2), `${key}.json`);
  }

  get(key: string): CachedReply | undefined {
    if (this.dir === null) return undefined;
    try {
      // A cache folder can be shared or tampered with: a FIFO or a huge file is a miss, not a hang.
      const entry = JSON.parse(new TextDecoder().decode(readRegularFile(this.file(key), MAX_ENTRY_BYTES))) as CachedReply;
      return entry.key === key && typeof entry.content === 'string' ? entry : undefined;
    } catch {
      return undefined;
    }
  }

  put(entry: CachedReply): void {
    if (this.dir === null) return;
    const file = this.file(entry.key);
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(tmp, stableStringify(entry));
      fs.renameSync(tmp, file);
    } catch {
      // A cache that cannot be written costs calls on the next build, never this build's result.
      try {
        fs.rmSync(tmp, { force: true });
      } catch {
        // Not made, or not removable either (no permission): a stray .tmp file is never read.
      }
    }
  }
}
