/**
 * Model calls per build (issue: calls ≤ clusters + 2 × touched parents; SaP's pipeline made 2,576
 * calls on its 500 skills). Builds a library with `--llm openai` against the loopback
 * OpenAI-compatible server of bench/openai-server.ts (echo responder: it agrees with the
 * deterministic results, so the counts are those of a cooperative model), three times with one
 * fresh reply cache: a cold build, an unchanged rebuild, and a rebuild after one word of one
 * skill's SKILL.md changed (in a copy of the library).
 *
 *   node build/bench/llm-calls.js [library] [--skill <folder to change>] [--responder echo|chaos] [--once]
 *
 * `--once` stops after the cold build (for large libraries).
 *
 * `--responder chaos` answers with malformed JSON, 400s, schema violations and bad bindings and
 * edits (bench/openai-server.ts): the build must complete with every item accounted for.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildCommand } from '../src/cli/build-command.js';
import { chaosResponder, echoResponder, startOpenAIServer } from './openai-server.js';

const args = process.argv.slice(2);
const library = path.resolve(args.find((a) => !a.startsWith('--')) ?? '/tmp/skills500');
const skillArg = args.indexOf('--skill') >= 0 ? args[args.indexOf('--skill') + 1] : undefined;

const responder = args.indexOf('--responder') >= 0 ? args[args.indexOf('--responder') + 1] : 'echo';
const server = await startOpenAIServer(responder === 'chaos' ? chaosResponder : echoResponder);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'skillc-llm-calls-'));
const lib = path.join(work, 'library');
fs.cpSync(library, lib, { recursive: true });
const cache = path.join(work, 'cache');

interface Run {
  readonly label: string;
  readonly calls: number;
  readonly seconds: number;
  readonly report: {
    pipeline: { clusters: number };
    refactor: { rewrittenParents: number };
    llm: { passes: { pass: string; requests: number; calls: number; cacheHits: number; promptTokens: number; completionTokens: number; items: Record<string, number> }[] };
  };
  readonly touched: number;
}

async function run(label: string): Promise<Run> {
  const before = server.requests.length;
  const out = path.join(work, `dist-${label}`);
  const sink = { write: () => true, isTTY: false } as unknown as NodeJS.WriteStream;
  const t0 = performance.now();
  const code = await buildCommand(lib, { out, quiet: true, progress: false, llm: { llm: 'openai', baseURL: server.url, model: 'echo', concurrency: 4, cacheDir: cache } }, { stdout: sink, stderr: sink });
  const seconds = (performance.now() - t0) / 1000;
  if (code !== 0) throw new Error(`build exited ${code}`);
  const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8')) as Run['report'];
  const rl = JSON.parse(fs.readFileSync(path.join(out, 'refactored_library.json'), 'utf8')) as { call_sites: { parent: string }[]; dropped_call_sites: { parent: string }[] };
  const touched = new Set([...rl.call_sites, ...rl.dropped_call_sites].map((c) => c.parent)).size;
  return { label, calls: server.requests.length - before, seconds, report, touched };
}

function show(r: Run): void {
  const bound = r.report.pipeline.clusters + 2 * r.touched;
  const per = r.report.llm.passes.map((p) => `${p.pass} ${p.requests} req / ${p.calls} calls / ${p.cacheHits} hits / ${p.promptTokens + p.completionTokens} tok`).join('; ');
  console.log(`${r.label}: ${r.calls} calls at the server (bound clusters ${r.report.pipeline.clusters} + 2 × touched parents ${r.touched} = ${bound}); ${per}; ${r.seconds.toFixed(1)} s`);
}

const cold = await run('cold');
show(cold);
const items = (r: Run) => r.report.llm.passes.map((p) => `${p.pass} ${Object.entries(p.items).map(([k, v]) => `${k} ${v}`).join(', ')}`).join('; ');
if (args.includes('--once')) {
  console.log(`items (cold): ${items(cold)}`);
  await server.close();
  fs.rmSync(work, { recursive: true, force: true });
  process.exit(0);
}
show(await run('unchanged'));
const skills = fs.readdirSync(lib, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('SKILL.md')).sort();
const target = skillArg ? path.join(skillArg, 'SKILL.md') : skills.find((f) => f.split(path.sep).length > 1)!;
const file = path.join(lib, target);
const text = fs.readFileSync(file, 'utf8');
// Append one word to the last line: the smallest edit that changes the skill's text.
fs.writeFileSync(file, text.replace(/\s*$/, ' (edited)\n'));
const changed = await run('one-skill-changed');
show(changed);
console.log(`changed: ${target}`);
console.log(`items (cold): ${items(cold)}`);
await server.close();
fs.rmSync(work, { recursive: true, force: true });
