/**
 * tree-sitter's grammars (the risk scan of code blocks) are WebAssembly, which V8 compiles twice:
 * at once with its baseline compiler (Liftoff), then again with its optimising one (TurboFan) on
 * background threads. On two cores that second compile holds back the main thread's own work
 * for about half a second: the next module import waited 0.6 s behind it, and a build of a
 * six-skill library took 1.96 s against 0.86 s with Liftoff alone. The optimised code buys
 * nothing measurable even on 2,268 skills (cold corpora builds within noise either way,
 * BENCHMARKS.md), so `skillc build` always compiles WebAssembly with Liftoff only, and `skillc
 * lint` does for short runs (its many-skill runs scan in worker threads, where it was not measured).
 *
 * The flag is process-wide and read when a module is compiled, so it must be set before the
 * first grammar is loaded.
 */
import v8 from 'node:v8';

let set = false;

export function baselineWasmOnly(): void {
  if (set) return;
  set = true;
  v8.setFlagsFromString('--liftoff-only');
}
