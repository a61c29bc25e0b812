/** Timing helpers shared by the parity benches. */
import { execFileSync } from 'node:child_process';
import { packageRoot } from '../src/util/package-root.js';

/** Runs `f` and returns its value with the wall time it took, in ms. */
export async function timed<T>(f: () => Promise<T> | T): Promise<{ value: T; ms: number }> {
  const start = process.hrtime.bigint();
  const value = await f();
  return { value, ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

/**
 * Milliseconds an ES-module snippet takes in a fresh Node process started in the package root
 * (median of `runs`): what a cold CLI run pays to load and first use something.
 */
export function coldLoadMs(snippet: string, runs = 5): number {
  const script = `const t = performance.now(); ${snippet}; process.stdout.write(String(performance.now() - t));`;
  const ms = Array.from({ length: runs }, () => Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: packageRoot(), encoding: 'utf8' })));
  return ms.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}
