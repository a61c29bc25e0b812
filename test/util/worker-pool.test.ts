/**
 * The worker pool (src/util/worker-pool.ts) with threads and with child processes: results in
 * input order whatever the scheduling, V8 flags reaching the processes, and a worker that dies
 * mid-way failing the map instead of leaving it waiting for ever.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mapInWorkers } from '../../src/util/worker-pool.js';
import { ROOT } from '../helpers/cli.js';

const WORKER = pathToFileURL(path.join(ROOT, 'test', 'fixtures', 'workers', 'double.mjs'));
interface Answer {
  readonly value: number;
  readonly pid: number;
  readonly flags: readonly string[];
}
const items = Array.from({ length: 40 }, (_, i) => i);

describe('mapInWorkers', () => {
  it('threads: results in input order, in this process', async () => {
    const out = await mapInWorkers<number, Answer>(WORKER, items, { jobs: 2, batchSize: 3 });
    expect(out.map((a) => a.value)).toEqual(items.map((i) => i * 2));
    expect(new Set(out.map((a) => a.pid))).toEqual(new Set([process.pid]));
  });

  it('processes: results in input order, from child processes started with the flags', async () => {
    const seen: number[] = [];
    const out = await mapInWorkers<number, Answer>(WORKER, items, { jobs: 2, batchSize: 3, processFlags: ['--single-threaded-gc'], onProgress: (done) => seen.push(done) });
    expect(out.map((a) => a.value)).toEqual(items.map((i) => i * 2));
    const pids = new Set(out.map((a) => a.pid));
    expect(pids.has(process.pid)).toBe(false);
    expect(pids.size).toBeGreaterThanOrEqual(1);
    // Only the flags asked for: not the parent's own execArgv (an `-e` or an inspector's port would make the child something else).
    expect(out.every((a) => a.flags.join(' ') === '--single-threaded-gc')).toBe(true);
    expect(seen.at(-1)).toBe(items.length);
  });

  it('a worker that exits mid-way fails the map, with threads and with processes', async () => {
    const withCrash: unknown[] = [...items.slice(0, 10), 'crash', ...items.slice(10)];
    await expect(mapInWorkers(WORKER, withCrash, { jobs: 2, batchSize: 4 })).rejects.toThrow(/exited with code 3/);
    await expect(mapInWorkers(WORKER, withCrash, { jobs: 2, batchSize: 4, processFlags: [] })).rejects.toThrow(/exited with code 3/);
    // In the last batch, when no batch is left to send (the pool once waited for ever then).
    const lastCrash: unknown[] = [...items, 'crash'];
    await expect(mapInWorkers(WORKER, lastCrash, { jobs: 2, batchSize: 4 })).rejects.toThrow(/exited with code 3/);
    await expect(mapInWorkers(WORKER, lastCrash, { jobs: 2, batchSize: 4, processFlags: [] })).rejects.toThrow(/exited with code 3/);
    // A process killed by a signal says which (an out-of-memory kill is recognisable).
    await expect(mapInWorkers(WORKER, [...items, 'kill'], { jobs: 2, batchSize: 4, processFlags: [] })).rejects.toThrow(/stopped by SIGKILL/);
  });
});
