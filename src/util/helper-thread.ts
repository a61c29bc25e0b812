/**
 * A worker thread that helps a build (emit/text-facts.ts, typed/ts-worker-host.ts): optional work
 * the main thread can always do itself, so a helper that cannot start is no helper, never an error.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * The worker module at `url` started as a thread, or null when it cannot be: the module is not
 * compiled (tests run the TypeScript sources, and a thread needs JavaScript) or the thread does not
 * start. It gets none of the parent's own flags: `--input-type`, `-e` or `--test` would make it
 * something else than this worker.
 */
export function startHelperThread(url: URL): Worker | null {
  if (!fs.existsSync(fileURLToPath(url))) return null;
  try {
    return new Worker(url, { execArgv: [] });
  } catch {
    return null;
  }
}
