/**
 * Build speed and memory (issue 22): cold builds, unchanged rebuilds and one-changed-skill
 * rebuilds with the build cache, and how time grows with the library. Every build is a fresh
 * `skillc build` process, timed with the peak memory of its process tree (bench/tree-peak.ts:
 * wall seconds, peak RSS of the build and its parse processes summed); figures are medians.
 *
 *   node build/bench/build-speed.js [library=../shared/corpora] [--runs 3] [--scaling]
 *
 * - cold: `--no-cache`, `runs` times.
 * - unchanged: a build that fills a fresh cache, then `runs` rebuilds of the same library.
 * - one change: `runs` rebuilds, each after appending a paragraph to a different skill (every
 *   n/runs-th by path) of a copy of the library. After the last one, a cold build of the changed
 *   copy must be byte-identical to the cached build's output (checked; the bench fails if not).
 * - --scaling-only: the cold builds and the scaling, without the cache runs.
 * - --scaling: also cold builds of half the library (every other skill by path); prints the
 *   per-byte time of the whole against the half (SKILL.md bytes).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { skillFiles } from './skill-files.js';

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const value = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1]! : fallback);
const positional = args.filter((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1] === '--runs'));
const library = path.resolve(positional[0] ?? '../shared/corpora');
const runs = Number(value('--runs', '3'));
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const bin = path.join(root, 'bin', 'skillc.js');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'skillc-speed-'));

interface Run {
  readonly secs: number;
  readonly rssMb: number;
}

/** A build, timed, with the peak memory of its process tree (the parse runs in child processes): tree-peak.ts. */
function build(lib: string, out: string, extra: readonly string[]): Run {
  const measured = execFileSync(process.execPath, [path.join(root, 'build', 'bench', 'tree-peak.js'), process.execPath, bin, 'build', lib, '-o', out, '--force', '-q', '--no-progress', ...extra], { encoding: 'utf8' });
  const [s, kb] = measured.trim().split(/\s+/).map(Number);
  return { secs: s!, rssMb: Math.round(kb! / 1024) };
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const show = (label: string, rs: readonly Run[]) => {
  console.log(`${label}: median ${median(rs.map((r) => r.secs)).toFixed(2)} s (runs ${rs.map((r) => r.secs.toFixed(2)).join(', ')}), peak RSS median ${median(rs.map((r) => r.rssMb))} MB (max ${Math.max(...rs.map((r) => r.rssMb))} MB)`);
  return median(rs.map((r) => r.secs));
};

const bytesOf = (files: readonly string[]) => files.reduce((a, f) => a + fs.statSync(f).size, 0);

function sameTree(a: string, b: string): string | null {
  const list = (d: string) => (fs.readdirSync(d, { recursive: true }) as string[]).map(String).sort();
  const la = list(a);
  const lb = list(b);
  if (la.join('\n') !== lb.join('\n')) return 'the file lists differ';
  for (const rel of la) {
    const pa = path.join(a, rel);
    if (fs.lstatSync(pa).isDirectory()) continue;
    if (!fs.readFileSync(pa).equals(fs.readFileSync(path.join(b, rel)))) return `${rel} differs`;
  }
  return null;
}

const skills = skillFiles(library);
console.log(`library ${library}: ${skills.length} skills, ${(bytesOf(skills) / 1e6).toFixed(1)} MB of SKILL.md; ${os.availableParallelism()} cores; node ${process.version}`);

const cold = show('cold (--no-cache)', Array.from({ length: runs }, () => build(library, path.join(work, 'cold'), ['--no-cache'])));

let diff: string | null = null;
if (!flag('--scaling-only')) diff = cacheRuns();

function cacheRuns(): string | null {
  const copy = path.join(work, 'lib');
  fs.cpSync(library, copy, { recursive: true });
  const cache = path.join(work, 'cache');
  const fill = build(copy, path.join(work, 'dist'), ['--cache', cache]);
  console.log(`cold, filling the cache: ${fill.secs.toFixed(2)} s, peak RSS ${fill.rssMb} MB`);
  const unchanged = show('unchanged rebuild', Array.from({ length: runs }, () => build(copy, path.join(work, 'dist'), ['--cache', cache])));

  const copySkills = skillFiles(copy);
  const changed = Array.from({ length: runs }, (_, i) => {
    const file = copySkills[Math.floor(((i + 0.5) * copySkills.length) / runs)]!;
    fs.appendFileSync(file, `\n\nA line added by the build-speed bench, run ${i + 1}.\n`);
    return build(copy, path.join(work, 'dist'), ['--cache', cache]);
  });
  const one = show('one changed skill', changed);
  build(copy, path.join(work, 'check'), ['--no-cache']);
  const diff = sameTree(path.join(work, 'dist'), path.join(work, 'check'));
  console.log(diff === null ? 'the cached build is byte-identical to a cold build of the same library' : `MISMATCH: ${diff}`);
  console.log(`ratios to cold: unchanged ${((100 * unchanged) / cold).toFixed(1)}%, one change ${((100 * one) / cold).toFixed(1)}%`);
  return diff;
}

if (flag('--scaling') || flag('--scaling-only')) {
  const half = path.join(work, 'half');
  const kept = skills.filter((_, i) => i % 2 === 0);
  for (const f of kept) {
    const dir = path.dirname(f);
    fs.cpSync(dir, path.join(half, path.relative(library, dir)), { recursive: true });
  }
  // A skill folder nested in another is copied with it: count what the half really holds.
  const halfSkills = skillFiles(half);
  const h = show(`half (${halfSkills.length} skills, ${(bytesOf(halfSkills) / 1e6).toFixed(1)} MB), cold`, Array.from({ length: runs }, () => build(half, path.join(work, 'half-dist'), ['--no-cache'])));
  const perByte = cold / bytesOf(skills) / (h / bytesOf(halfSkills));
  console.log(`per-byte time, whole against half: ${perByte.toFixed(2)}x (bytes ${(bytesOf(skills) / bytesOf(halfSkills)).toFixed(2)}x, time ${(cold / h).toFixed(2)}x)`);
}
fs.rmSync(work, { recursive: true, force: true });
if (diff !== null) process.exitCode = 1;
