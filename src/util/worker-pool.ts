/**
 * Maps a pure function over items in worker threads, returning results in input order (so the
 * output never depends on scheduling). Items go out in small batches to whichever worker is free.
 * The worker module must answer `{ batch, results }` to each `{ batch, items }` message; see
 * parse-worker.ts. Used only for CPU-bound, side-effect-free work such as parsing.
 */
import { Worker } from 'node:worker_threads';

export interface PoolOptions {
  readonly jobs: number;
  readonly batchSize?: number;
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * Young-generation size of each worker, in MB. Markdown parsing allocates many short-lived
   * objects; a larger nursery than V8's default cuts scavenge time by about a quarter.
   */
  readonly youngGenerationMb?: number;
}

export async function mapInWorkers<T, R>(workerUrl: URL, items: readonly T[], opts: PoolOptions): Promise<R[]> {
  const batchSize = Math.max(1, opts.batchSize ?? 16);
  const batches: { start: number; items: readonly T[] }[] = [];
  for (let i = 0; i < items.length; i += batchSize) batches.push({ start: i, items: items.slice(i, i + batchSize) });
  const results = new Array<R>(items.length);
  const jobs = Math.max(1, Math.min(opts.jobs, batches.length));
  let next = 0;
  let done = 0;

  await new Promise<void>((resolve, reject) => {
    const workers: Worker[] = [];
    let finished = false;
    let active = 0;
    const fail = (err: unknown) => {
      if (finished) return;
      finished = true;
      for (const w of workers) void w.terminate();
      reject(err instanceof Error ? err : new Error(String(err)));
    };
    const feed = (w: Worker) => {
      if (next >= batches.length) {
        active--;
        void w.terminate();
        if (active === 0 && !finished) {
          finished = true;
          resolve();
        }
        return;
      }
      const b = next++;
      w.postMessage({ batch: b, items: batches[b]!.items });
    };
    for (let k = 0; k < jobs; k++) {
      const w = new Worker(workerUrl, opts.youngGenerationMb ? { resourceLimits: { maxYoungGenerationSizeMb: opts.youngGenerationMb } } : {});
      workers.push(w);
      active++;
      w.on('message', (msg: { batch: number; results: R[] }) => {
        const b = batches[msg.batch]!;
        msg.results.forEach((r, i) => (results[b.start + i] = r));
        done += b.items.length;
        opts.onProgress?.(done, items.length);
        feed(w);
      });
      w.on('error', fail);
      w.on('exit', (code) => {
        if (code !== 0 && !finished && next < batches.length) fail(new Error(`worker exited with code ${code}`));
      });
      feed(w);
    }
  });
  return results;
}
