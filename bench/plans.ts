/**
 * Plans for multi-step tasks (issue 21 item 4), measured by how many of a task's needed skills the
 * plan holds. For every query of a set with two or more gold skills:
 *
 * - plan recall: distinct gold contents among the plan's steps / distinct gold contents (and with
 *   --fold-versions, by path and counting the versions each step names, rank.ts VERSION_SEM);
 * - plan size, and the share of steps that are gold (precision);
 * - the same recall for the first N hits of the plain ranking and of plain BM25, with N the plan's
 *   own size, so a plan is judged against a list as long as itself;
 * - order: of the gold pairs joined by a dep or wf edge in graph.json, how many the plan puts
 *   producer first.
 *
 * A step counts as gold when its SKILL.md is byte-identical to a gold skill's (retrieval.ts).
 *
 * `--prefix corpora/` reads gold paths under that folder (a pool with a distractor library).
 *
 *   node build/bench/plans.js <queries.jsonl> [dist] [--k 8] [--prefix <folder/>]
 */
import path from 'node:path';
import { openRetriever } from '../src/query/retriever.js';
import { planSteps } from '../src/query/plan.js';
import { plainBm25 } from './plain-bm25.js';
import { benchArgs, rawText, readParents, readQuerySet } from './query-set.js';

const args = process.argv.slice(2);
const { positional, prefix, value } = benchArgs(args, ['--k']);
const queriesFile = positional[0];
if (!queriesFile) {
  console.error('usage: node build/bench/plans.js <queries.jsonl> [dist] [--k 8] [--prefix <folder/>]');
  process.exit(2);
}
const dist = path.resolve(positional[1] ?? 'dist');
const K = Number(value('--k') ?? 8);
const rows = readQuerySet(queriesFile, prefix).filter((r) => r.gold.length >= 2);

const retriever = openRetriever(dist);
const parents = readParents(dist);
const shaOf = new Map(parents.map((p) => [p.path, p.sha256]));
const bm25 = plainBm25(parents.map((p) => ({ path: p.path, text: rawText(p) })));
const ordering = retriever.index.edges.filter((e) => e.type === 'dep' || e.type === 'wf');

const sums = { recall: 0, versionRecall: 0, foldedRecall: 0, size: 0, precision: 0, listRecall: 0, bm25Recall: 0, pairs: 0, inOrder: 0, empty: 0 };
const times: number[] = [];
for (const row of rows) {
  const gold = new Set(row.gold.map((g) => shaOf.get(g) ?? `missing:${g}`));
  const recallOf = (paths: readonly string[]) => new Set(paths.map((p) => shaOf.get(p)).filter((s) => s !== undefined && gold.has(s))).size / gold.size;
  const t0 = performance.now();
  const plan = planSteps(retriever.index, row.query, K);
  times.push(performance.now() - t0);
  const steps = plan.steps.map((s) => s.hit.node.path);
  if (steps.length === 0) sums.empty++;
  sums.recall += recallOf(steps);
  // The versions folded into a step are named in its header: the plan holds their paths too.
  const folded = planSteps(retriever.index, row.query, K, { foldVersions: true });
  sums.versionRecall += recallOf(folded.steps.flatMap((s) => [s.hit.node.path, ...(s.hit.versions ?? [])]));
  sums.foldedRecall += recallOf(folded.steps.map((s) => s.hit.node.path));
  sums.size += steps.length;
  sums.precision += steps.length === 0 ? 0 : steps.filter((p) => gold.has(shaOf.get(p)!)).length / steps.length;
  const n = Math.max(1, steps.length);
  sums.listRecall += recallOf(retriever.rank(row.query, n).hits.map((h) => h.node.path));
  sums.bm25Recall += recallOf(bm25(row.query, n));
  const at = new Map(plan.steps.map((s, i) => [s.hit.node.id, i]));
  for (const e of ordering) {
    if (at.has(e.from) && at.has(e.to) && gold.has(shaOf.get(e.from.replace(/^skill:/, ''))!) && gold.has(shaOf.get(e.to.replace(/^skill:/, ''))!)) {
      sums.pairs++;
      if (at.get(e.from)! < at.get(e.to)!) sums.inOrder++;
    }
  }
}
const f = (x: number) => (x / rows.length).toFixed(3);
times.sort((a, b) => a - b);
console.log(`${path.basename(queriesFile)}: ${rows.length} queries with 2+ gold skills (${rows.reduce((a, r) => a + r.gold.length, 0)} gold), ${parents.length} skills in ${dist}, at most ${K} steps\n`);
console.log('| measure | value |');
console.log('|---|---:|');
console.log(`| plan recall (gold skills in the plan) | ${f(sums.recall)} |`);
console.log(`| with --fold-versions, by path | ${f(sums.foldedRecall)} |`);
console.log(`| with --fold-versions, the versions a step names counted | ${f(sums.versionRecall)} |`);
console.log(`| plan size (mean steps) | ${f(sums.size)} |`);
console.log(`| plan precision (steps that are gold) | ${f(sums.precision)} |`);
console.log(`| recall of the plain ranking's first N hits (N = plan size) | ${f(sums.listRecall)} |`);
console.log(`| recall of plain BM25's first N hits | ${f(sums.bm25Recall)} |`);
console.log(`| gold producer/consumer pairs in a plan, producer first | ${sums.inOrder} of ${sums.pairs} |`);
console.log(`| plans with no step (NO_SKILL_HIT) | ${sums.empty} |`);
console.log(`\nplan time: median ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms`);
