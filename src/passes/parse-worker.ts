/** Worker-thread entry for the parse pass: parses batches of skills with the same code as in-process. */
import { parentPort } from 'node:worker_threads';
import type { SourceSkill } from '../ir/types.js';
import { parseOne } from './parse.js';

parentPort?.on('message', (msg: { batch: number; items: SourceSkill[] }) => {
  parentPort!.postMessage({ batch: msg.batch, results: msg.items.map(parseOne) });
});
