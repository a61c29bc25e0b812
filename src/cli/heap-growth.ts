/**
 * How far V8 lets the heap grow past its live data before the next full collection, for the
 * commands that build a library (build, calibrate). By default V8 picks a factor of up to 4 when
 * collections are cheap next to the allocation, and a build allocates fast (parse trees, token
 * counts, candidate lists): on the corpora the live heap after a full collection stayed at 100 to
 * 260 MB while the heap grew to 720 MB and the process to 1.04 GB. A fixed factor of 1.5 keeps
 * the peak near 700 MB at the same wall time (BENCHMARKS.md, issue 22), and, being a factor, it
 * scales with the library where a fixed --max-old-space-size would run a large one out of memory.
 *
 * The flag is read at every collection, so setting it once the process runs takes effect (it is
 * for this process; the parse processes, whose heaps are short-lived, keep their own).
 * SKILLC_HEAP_GROWING_PERCENT overrides it; 0 restores V8's own choice.
 */
import v8 from 'node:v8';

export const HEAP_GROWING_PERCENT = 50;

let set = false;

/** The percent to use: SKILLC_HEAP_GROWING_PERCENT when it is a whole number up to 9999, else ours. */
export function heapGrowingPercent(env: NodeJS.ProcessEnv): number {
  const raw = env['SKILLC_HEAP_GROWING_PERCENT']?.trim();
  return raw !== undefined && /^\d{1,4}$/.test(raw) ? Number(raw) : HEAP_GROWING_PERCENT;
}

/** Sets V8's heap growing factor for the rest of the process (once). */
export function limitHeapGrowth(env: NodeJS.ProcessEnv = process.env): void {
  if (set) return;
  set = true;
  v8.setFlagsFromString(`--heap-growing-percent=${heapGrowingPercent(env)}`);
}
