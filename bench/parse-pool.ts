/**
 * The parse pass's worker pool on a library (issue 22): every SKILL.md parsed by `-j` workers as
 * threads, and as child processes with V8's defaults, with `--single-threaded-gc` alone, and with
 * the build's flags (PARSE_PROCESS_FLAGS: that and a 2 MiB interrupt budget), interleaved `runs`
 * times; medians of the wall time, and the results checked equal to an in-process parse. Threads
 * share the process's V8 flags, so only processes can have their own.
 *
 *   node build/bench/parse-pool.js [library=../shared/corpora] [--runs 3] [--jobs 2]
 */
import path from 'node:path';
import { loadLibrary } from '../src/load/load-library.js';
import { PARSE_PROCESS_FLAGS, parseOne } from '../src/passes/parse.js';
import { mapInWorkers } from '../src/util/worker-pool.js';
import { stableStringify } from '../src/util/stable-json.js';
import { sha256 } from '../src/util/hash.js';

const args = process.argv.slice(2);
const value = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1]! : fallback);
const library = path.resolve(args.find((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1]!.startsWith('--'))) ?? '../shared/corpora');
const runs = Number(value('--runs', '3'));
const jobs = Number(value('--jobs', '2'));
const workerUrl = new URL('../src/passes/parse-worker.js', import.meta.url);

const skills = loadLibrary(library).skills;
/** Each result's stable JSON, hashed (the whole would be one string of over 100 MB). */
const digests = (results: readonly unknown[]) => results.map((r) => sha256(stableStringify(r, 0))).join('\n');
const reference = digests(skills.map(parseOne));
const ways: Record<string, Parameters<typeof mapInWorkers>[2]> = {
  threads: { jobs },
  processes: { jobs, processFlags: [] },
  'processes, --single-threaded-gc': { jobs, processFlags: ['--single-threaded-gc'] },
  [`processes, ${PARSE_PROCESS_FLAGS.join(' ')} (the build's)`]: { jobs, processFlags: PARSE_PROCESS_FLAGS },
};
const times = new Map<string, number[]>(Object.keys(ways).map((k) => [k, []]));
for (let r = 0; r < runs; r++) {
  for (const [name, opts] of Object.entries(ways)) {
    const t0 = performance.now();
    const out = await mapInWorkers(workerUrl, skills, opts);
    times.get(name)!.push((performance.now() - t0) / 1000);
    if (digests(out) !== reference) throw new Error(`${name}: results differ from an in-process parse`);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`${skills.length} skills, ${jobs} workers, ${runs} interleaved runs; results identical to an in-process parse\n`);
console.log('| workers | median | runs |\n|---|---:|---|');
for (const [name, xs] of times) console.log(`| ${name} | ${median(xs).toFixed(1)} s | ${xs.map((x) => x.toFixed(1)).join(', ')} |`);
