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
  process.on('message', (msg: Batch) => process.send!(answer(msg)));
  process.on('disconnect', () => process.exit(0));
}
