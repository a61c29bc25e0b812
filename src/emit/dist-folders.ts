/**
 * A new dist's folders and copied files made ahead of the write, in a worker thread while the
 * library is rendered. A dist of the corpora has some 3,200 folders, one per skill and more for
 * their files, and 5,600 files copied as they are from the library; on this machine's disk a
 * folder costs 0.1 to 0.3 ms to make, and the copies take 1.3 to 2.6 s in a build with nothing to
 * link from: time the write spent on the main thread while the second core idled (BENCHMARKS.md,
 * issue 22).
 *
 * The folder is the sibling writeDist would make (its name holds this process's id, so another
 * build's recovery leaves it alone while this one runs), marked INCOMPLETE from its first moment:
 * left behind by a build killed before the write, it is removed by the next build's recovery like
 * any partial dist. writeDist writes into it: a copy made here stays only if it is the artifact of
 * its path (same source, hash and mode, the hash checked as it was copied), any other is removed,
 * and folders that no file ends up in are removed before the new dist is put in place, so the dist
 * is the one a write from nothing gives. When the write is due the worker is told to stop and the
 * write does what it did not get to. A worker that cannot start or fails costs nothing but what
 * the write then does itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CopiedFile, ParentLayout } from './library.js';
import { startHelperThread } from '../util/helper-thread.js';
import { INCOMPLETE_MARKER, newSibling, removePartial } from './write-dist.js';

/** What the worker is sent. */
export interface FoldersRequest {
  /** The new dist's folder (absolute), made by the worker. */
  readonly dist: string;
  readonly marker: string;
  /** dist-relative folders, each after its ancestors. */
  readonly folders: readonly string[];
  readonly copies: readonly CopiedFile[];
  /** One Int32: set to 1, the worker copies no further file. */
  readonly stop: SharedArrayBuffer;
}

/** What the worker answers: how many of the folders it made (the first ones), which copies (indices). */
export interface FoldersReply {
  made: number;
  copied: number[];
  error?: string;
}

/** A new dist folder with folders made and files copied in it, for writeDist to write into. */
export interface PreparedDist {
  readonly dist: string;
  /** dist-relative folders made in it. */
  readonly folders: readonly string[];
  /** The files copied in it, by dist-relative path. */
  readonly copies: ReadonlyMap<string, CopiedFile>;
}

export interface PendingDist {
  /** Stops the copies and gives the folder, or null if none was made (the write makes its own). */
  finish(): Promise<PreparedDist | null>;
  /** Removes the folder if the build ends without writing into it. */
  discard(): Promise<void>;
}

const workerUrl = new URL('./dist-folders-worker.js', import.meta.url);

/** A dist-relative path the worker may make: plain segments only. */
function plain(p: string): boolean {
  return p.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

/**
 * Starts making a new dist for `outDir` with the layout's folders, and its copies unless
 * `withCopies` is false (a rebuild links most of them from the old output instead).
 */
export function prepareDist(outDir: string, layout: ParentLayout, withCopies: boolean): PendingDist {
  const none: PendingDist = { finish: () => Promise.resolve(null), discard: async () => {} };
  const dist = newSibling(path.resolve(outDir));
  // The output's folder is made by the write, once it is due: a build that never gets there makes none.
  if (!fs.existsSync(path.dirname(dist))) return none;
  const worker = startHelperThread(workerUrl);
  if (!worker) return none;
  const folders = layout.folders.filter(plain);
  const copies = withCopies ? layout.copies.filter((c) => plain(c.path)) : [];
  const stop = new SharedArrayBuffer(4);
  let settled = false;
  const result = new Promise<PreparedDist | null>((resolve) => {
    const settle = (reply: FoldersReply | null) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      // A worker that made no folder may still have made the dist's: it is not left behind.
      if (reply === null || (reply.error !== undefined && reply.made === 0)) {
        removePartial(dist);
        resolve(null);
        return;
      }
      // Made in part: the folders made are the first `made` asked (each after its ancestors).
      resolve({ dist, folders: folders.slice(0, reply.made), copies: new Map(reply.copied.map((i) => [copies[i]!.path, copies[i]!])) });
    };
    worker.on('message', (m: FoldersReply) => settle(m));
    worker.on('error', () => settle(null));
    worker.on('exit', () => settle(null));
    try {
      worker.postMessage({ dist, marker: INCOMPLETE_MARKER, folders, copies, stop } satisfies FoldersRequest);
    } catch {
      settle(null);
    }
  });
  return {
    finish: () => {
      Atomics.store(new Int32Array(stop), 0, 1);
      return result;
    },
    // Whatever the worker got to make, the folder is marked, so it is removed as a partial dist.
    discard: async () => {
      Atomics.store(new Int32Array(stop), 0, 1);
      await result;
      removePartial(dist);
    },
  };
}
