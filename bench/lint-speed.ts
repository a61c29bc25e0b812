/**
 * Speed of `skillc lint` as users run it, each run a fresh process (cold: Node start-up, imports,
 * parsers and tokenizer loads included):
 *
 * - one skill: every k-th skill of the corpora (a fixed, spread-out sample), linted alone as a
 *   pre-commit hook would (given its SKILL.md path: given the folder, a skill with skills nested
 *   below it is linted as a library of all of them); prints the median, 90th and 99th percentile
 *   and maximum wall time and the slowest skills with their size;
 * - all skills: the whole corpora in one run, `--runs` times; prints the median.
 *
 *   node build/bench/lint-speed.js [corpora] [--sample 40|all] [--runs 3]
 *
 * `--sample all` times every skill alone (about 10 minutes on 2 cores); `--runs 0` skips the
 * whole-corpora run.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadLibrary } from '../src/load/load-library.js';

const args = process.argv.slice(2);
const flag = (name: string, dflt: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const sampleArg = args[args.indexOf('--sample') + 1];
const sample = args.includes('--sample') && sampleArg === 'all' ? Infinity : flag('--sample', 40);
const runs = flag('--runs', 3);
const root = path.resolve(args.find((a, i) => !a.startsWith('--') && !['--sample', '--runs'].includes(args[i - 1] ?? '')) ?? '../shared/corpora');
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'skillc.js');

function timeRun(cliArgs: string[]): { seconds: number; code: number } {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [bin, 'lint', ...cliArgs], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CI: '1' } });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (r.status === 2) throw new Error(`skillc lint ${cliArgs.join(' ')} failed: ${r.stderr.toString()}`);
  return { seconds, code: r.status ?? -1 };
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1) + 0.5))]!;
}

const skills = loadLibrary(root).skills;
const step = Number.isFinite(sample) ? Math.max(1, Math.floor(skills.length / sample)) : 1;
const picked = skills.filter((_, i) => i % step === 0).slice(0, sample);
timeRun([picked[0]!.file]); // warm the file system cache, not the process
const one = picked.map((s) => ({ skill: s.file, bytes: s.content.length, ...timeRun([s.file]) }));
const times = one.map((o) => o.seconds).sort((a, b) => a - b);
const ms = (s: number) => `${Math.round(s * 1000)} ms`;
console.log(`one skill, cold process (${one.length} skills, every ${step}th of ${skills.length}):`);
console.log(`  median ${ms(quantile(times, 0.5))}, p90 ${ms(quantile(times, 0.9))}, p99 ${ms(quantile(times, 0.99))}, max ${ms(times[times.length - 1]!)}, under 400 ms: ${times.filter((t) => t < 0.4).length}/${times.length}`);
for (const o of [...one].sort((a, b) => b.seconds - a.seconds).slice(0, 5)) console.log(`  ${ms(o.seconds).padStart(7)}  ${o.skill} (${o.bytes} bytes)`);

const all: number[] = [];
if (runs === 0) process.exit(0);
for (let i = 0; i < runs; i++) all.push(timeRun(['.', '--format', 'json', '--output-file', path.join(fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'lint-speed-')), 'out.json')]).seconds);
all.sort((a, b) => a - b);
console.log(`all ${skills.length} skills, one process: median ${quantile(all, 0.5).toFixed(1)} s of ${runs} runs (${all.map((s) => s.toFixed(1)).join(', ')})`);
