/**
 * Worker entry for dist-folders.ts: makes a new dist's sibling folder, marks it INCOMPLETE, makes
 * the folders it is sent in it (each after its ancestors), then copies the files it is sent from
 * the library, each checked against its SHA-256, until it is told to stop. Posts how many folders
 * it made and which files it copied; a file it could not copy is left to the write, which copies
 * it or says why not.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import type { FoldersReply, FoldersRequest } from './dist-folders.js';
import { copyVerified } from './write-dist.js';

parentPort?.once('message', (request: FoldersRequest) => {
  const reply: FoldersReply = { made: 0, copied: [] };
  const stop = new Int32Array(request.stop);
  try {
    fs.mkdirSync(request.dist);
    fs.writeFileSync(path.join(request.dist, request.marker), `${process.pid}\n`, { flag: 'wx' });
    for (const folder of request.folders) {
      fs.mkdirSync(path.join(request.dist, ...folder.split('/')));
      reply.made++;
    }
    for (const [i, c] of request.copies.entries()) {
      if (Atomics.load(stop, 0) !== 0) break;
      const target = path.join(request.dist, ...c.path.split('/'));
      try {
        copyVerified(c.copyFrom, target, c.sha256, c.mode);
        reply.copied.push(i);
      } catch {
        try {
          fs.unlinkSync(target);
        } catch {
          // Never made.
        }
      }
    }
    parentPort!.postMessage(reply);
  } catch (err) {
    parentPort!.postMessage({ ...reply, error: err instanceof Error ? err.message : String(err) });
  }
});
