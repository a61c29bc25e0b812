/**
 * Worker entry for the parse pass: parses batches of skills with the same code as in-process.
 * Runs as a worker thread or as a child process (util/worker-pool.ts); a process exits when its
 * parent closes the channel, or goes away.
 */
import { parentPort } from 'node:worker_threads';
import type { SourceSkill } from '../ir/types.js';
import { parseOne } from './parse.js';

interface Batch {
  readonly batch: number;
  readonly items: SourceSkill[];
}

const answer = (msg: Batch) => ({ batch: msg.batch, results: msg.items.map(parseOne) });

if (parentPort) {
  parentPort.on('message', (msg: Batch) => parentPort!.postMessage(answer(msg)));
} else if (process.send) {
  // A parent gone mid-batch cannot take the answer: exit quietly rather than print its error.
  process.on('message', (msg: Batch) => process.send!(answer(msg), (err: Error | null) => err && process.exit(1)));
  process.on('disconnect', () => process.exit(0));
}
