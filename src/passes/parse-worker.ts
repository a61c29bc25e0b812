/**
 * Worker entry for the parse pass: parses batches of skills with the same code as in-process, and
 * gives each parse its section-body keys for the passages pass.
 * Runs as a worker thread or as a child process (util/worker-pool.ts); a process exits when its
 * parent closes the channel, or goes away.
 */
import { parentPort } from 'node:worker_threads';
import type { SourceSkill } from '../ir/types.js';
import { parseOne, type ParseResult } from './parse.js';
import { bodyKeysOf } from '../passages/detect.js';

interface Batch {
  readonly batch: number;
  readonly items: SourceSkill[];
}

/**
 * A parse with its section-body keys, which the passages pass would otherwise compute on the main
 * thread after the parse, while the parse processes' cores have gone idle (0.7 s on the corpora).
 * A parse whose keys cannot be computed here goes without them, and the pass computes them itself.
 */
function withSectionKeys(r: ParseResult): ParseResult {
  if (!r.parent) return r;
  try {
    return { ...r, sectionKeys: bodyKeysOf(r.parent) };
  } catch {
    return r;
  }
}

const answer = (msg: Batch) => ({ batch: msg.batch, results: msg.items.map((s) => withSectionKeys(parseOne(s))) });

if (parentPort) {
  parentPort.on('message', (msg: Batch) => parentPort!.postMessage(answer(msg)));
} else if (process.send) {
  // A parent gone mid-batch cannot take the answer: exit quietly rather than print its error.
  process.on('message', (msg: Batch) => process.send!(answer(msg), (err: Error | null) => err && process.exit(1)));
  process.on('disconnect', () => process.exit(0));
}
