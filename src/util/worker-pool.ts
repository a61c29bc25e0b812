/**
 * Maps a pure function over items in worker threads or child processes, returning results in
 * input order (so the output never depends on scheduling). Items go out in small batches to
 * whichever worker is free. The worker module must answer `{ batch, results }` to each
 * `{ batch, items }` message, from a thread (parentPort) or a process (process.send); see
 * parse-worker.ts. Used only for CPU-bound, side-effect-free work such as parsing.
 *
 * Why processes: V8 flags are process-wide, and threads cannot have their own. Markdown parsing
 * allocates fast, and V8's parallel and concurrent collectors then run helper threads for each
 * heap: on two cores, two parsing threads spent 1.5 times as long per skill as one alone. In
 * processes started with `--single-threaded-gc` the parse of the corpora took a sixth less time
 * (bench/parse-pool.ts, BENCHMARKS.md, issue 22), while the main process keeps its background
 * collectors for the passes that follow. Results come back over the IPC channel in V8's serialisation, the same
 * format a thread's postMessage uses.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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
  /**
   * Run the workers as child processes started with exactly these Node and V8 flags (not the
   * parent's own execArgv; see processWorker) instead of threads. youngGenerationMb does not apply.
   */
  readonly processFlags?: readonly string[];
}

/** A worker thread or process, as the pool drives it. */
interface PoolWorker {
  send(message: unknown): void;
  onMessage(f: (message: unknown) => void): void;
  onFailure(f: (err: Error) => void): void;
  /** The worker ended: its exit code, or the signal that stopped it. */
  onExit(f: (how: number | string | null) => void): void;
  /** The worker is done: a thread is terminated, a process told to exit (its channel closed). */
  finish(): void;
  /** Stop at once. */
  kill(): void;
}

function threadWorker(url: URL, youngGenerationMb?: number): PoolWorker {
  const w = new Worker(url, youngGenerationMb ? { resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb } } : {});
  return {
    send: (m) => w.postMessage(m),
    onMessage: (f) => w.on('message', f),
    onFailure: (f) => w.on('error', f),
    onExit: (f) => w.on('exit', f),
    finish: () => void w.terminate(),
    kill: () => void w.terminate(),
  };
}

/**
 * A child process runs the worker module with only the flags asked for: the parent's own execArgv
 * may hold `-e <code>`, `--test`, `--watch` or an inspector's port, which would make the child
 * something else than a worker. (NODE_OPTIONS still reaches it through the environment.)
 */
function processWorker(url: URL, flags: readonly string[]): PoolWorker {
  const child: ChildProcess = fork(fileURLToPath(url), [], { execArgv: [...flags], serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  // Children outlive a parent that exits or is stopped by a signal while they work (they notice
  // the closed channel only between batches): they are stopped with it.
  const stop = () => void child.kill();
  const onSignal = (signal: NodeJS.Signals) => {
    stop();
    forget();
    // The default action, as if no handler had been added.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const forget = () => {
    process.removeListener('exit', stop);
    for (const s of FORWARDED_SIGNALS) process.removeListener(s, onSignal);
  };
  process.on('exit', stop);
  for (const s of FORWARDED_SIGNALS) process.on(s, onSignal);
  child.on('exit', forget);
  return {
    send: (m) => void child.send(m as Parameters<ChildProcess['send']>[0]),
    onMessage: (f) => child.on('message', f),
    onFailure: (f) => child.on('error', f),
    onExit: (f) => child.on('exit', (code, signal) => f(signal !== null ? signal : code)),
    // The worker exits when its channel closes (parse-worker.ts).
    finish: () => {
      if (child.connected) child.disconnect();
    },
    kill: stop,
  };
}

const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export async function mapInWorkers<T, R>(workerUrl: URL, items: readonly T[], opts: PoolOptions): Promise<R[]> {
  const batchSize = Math.max(1, opts.batchSize ?? 16);
  const batches: { start: number; items: readonly T[] }[] = [];
  for (let i = 0; i < items.length; i += batchSize) batches.push({ start: i, items: items.slice(i, i + batchSize) });
  const results = new Array<R>(items.length);
  const jobs = Math.max(1, Math.min(opts.jobs, batches.length));
  let next = 0;
  let done = 0;

  await new Promise<void>((resolve, reject) => {
    const workers: PoolWorker[] = [];
    /** Workers told to finish (no batch left for them): their exit is expected, whatever its code (a terminated thread's is 1). */
    const retired = new Set<PoolWorker>();
    let finished = false;
    let active = 0;
    const fail = (err: unknown) => {
      if (finished) return;
      finished = true;
      for (const w of workers) w.kill();
      reject(err instanceof Error ? err : new Error(String(err)));
    };
    const feed = (w: PoolWorker) => {
      if (next >= batches.length) {
        active--;
        retired.add(w);
        w.finish();
        if (active === 0 && !finished) {
          finished = true;
          resolve();
        }
        return;
      }
      const b = next++;
      w.send({ batch: b, items: batches[b]!.items });
    };
    for (let k = 0; k < jobs; k++) {
      const w = opts.processFlags ? processWorker(workerUrl, opts.processFlags) : threadWorker(workerUrl, opts.youngGenerationMb);
      workers.push(w);
      active++;
      w.onMessage((message) => {
        const msg = message as { batch: number; results: R[] };
        const b = batches[msg.batch]!;
        msg.results.forEach((r, i) => (results[b.start + i] = r));
        done += b.items.length;
        opts.onProgress?.(done, items.length);
        feed(w);
      });
      w.onFailure(fail);
      // A worker that ends before it is told to (a crash, a kill, an exit in the worker's code)
      // fails the map, even in the last batch: waiting for its answer would wait for ever.
      w.onExit((how) => {
        if (!retired.has(w) && !finished) fail(new Error(typeof how === 'string' ? `worker was stopped by ${how}` : `worker exited with code ${how}`));
      });
      feed(w);
    }
  });
  return results;
}
