/** Worker-thread entry for lint: lints batches of skills with the same code as in-process. */
import { parentPort } from 'node:worker_threads';
import { lintItem, type LintItem } from './run.js';

parentPort?.on('message', (msg: { batch: number; items: LintItem[] }) => {
  void (async () => {
    const results = [];
    for (const item of msg.items) results.push(await lintItem(item));
    parentPort!.postMessage({ batch: msg.batch, results });
  })();
});
