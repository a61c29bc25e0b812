/**
 * Retrieval quality on a query set: R@1, R@5, R@10, MRR and Hit@10 (SkillFlow's definitions:
 * recall@k is the share of a query's gold skills in the top k, MRR the reciprocal rank of the first
 * gold skill, Hit@10 whether any gold skill is in the top 10; all averaged over queries) for
 *
 * - skillc: `openRetriever(dist).rank()`, the ranking `skillc query` hydrates;
 * - two ablations: skillc without sem edges, and without any edge (the same seeds and rerank);
 * - BM25: plain Okapi BM25 (k1 1.2, b 0.75) over each skill's raw SKILL.md text, one field, the
 *   same tokenizer, no graph: the baseline.
 *
 * A retrieved skill counts as gold when its SKILL.md is byte-identical to a gold skill's (the
 * corpora hold copies of one skill under several tasks), and recall counts distinct gold contents.
 * Also prints load + first query time and the median warm query time.
 *
 * `--prefix corpora/` reads gold paths under that folder: a dist built from a pool that holds the
 * corpora beside a distractor library (issue 21 item 5).
 *
 * With `--embeddings-base-url <url>` (a dist built with `--embeddings openai`), every query is
 * embedded through that OpenAI-compatible endpoint with the dist's model, and two more rows are
 * printed: skillc with the cosine mixed into its seeds (weight `--embeddings-weight`, default that
 * of `skillc query`), and the cosine alone.
 *
 *   node build/bench/retrieval.js <queries.jsonl> [dist] [--k 10] [--misses] [--prefix <folder/>] [--embeddings-base-url <url>] [--embeddings-weight w]
 */
import path from 'node:path';
import { openRetriever } from '../src/query/retriever.js';
import { indexOf, readGraphDocument } from '../src/query/graph-index.js';
import { DEFAULT_DENSE_WEIGHT, denseCosines, rank } from '../src/query/rank.js';
import { embedderFrom, MAX_EMBEDDED_QUERY_CHARS } from '../src/embed/embeddings.js';
import { plainBm25 } from './plain-bm25.js';
import { benchArgs, rawText, readParents, readQuerySet } from './query-set.js';

const args = process.argv.slice(2);
const { positional, prefix, value } = benchArgs(args, ['--k', '--embeddings-base-url', '--embeddings-weight']);
const queriesFile = positional[0];
if (!queriesFile) {
  console.error('usage: node build/bench/retrieval.js <queries.jsonl> [dist] [--k 10] [--misses]');
  process.exit(2);
}
const dist = path.resolve(positional[1] ?? 'dist');
const K = 10;
const rows = readQuerySet(queriesFile, prefix);

const t0 = performance.now();
const retriever = openRetriever(dist);
retriever.rank(rows[0]!.query, K);
const coldMs = performance.now() - t0;

const parents = readParents(dist);
const shaOf = new Map(parents.map((p) => [p.path, p.sha256]));
const unknown = rows.flatMap((r) => r.gold.filter((g) => !shaOf.has(g)));
if (unknown.length > 0) console.warn(`warning: ${unknown.length} gold paths are not in ${dist} (e.g. ${unknown[0]}); they count as misses`);

/** A ranked list of paths; a place that names several (a hit and its folded versions) holds them one per line. */
type Ranker = (q: string) => string[];
const doc = readGraphDocument(dist);
const noGraph = indexOf(dist, { ...doc, edges: [] });
const noSem = indexOf(dist, { ...doc, edges: doc.edges.filter((e) => e.type !== 'sem') });
const bm25 = plainBm25(parents.map((p) => ({ path: p.path, text: rawText(p) })));
const methods: [string, Ranker][] = [
  ['skillc (BM25F + vector seeds, PPR, rerank)', (q) => retriever.rank(q, K).hits.map((h) => h.node.path)],
  ['skillc --fold-versions, by path', (q) => rank(retriever.index, q, K, { foldVersions: true }).hits.map((h) => h.node.path)],
  ['skillc --fold-versions, a hit\'s versions counted at its rank', (q) => rank(retriever.index, q, K, { foldVersions: true }).hits.map((h) => [h.node.path, ...(h.versions ?? [])].join('\n'))],
  ['skillc without sem edges', (q) => rank(noSem, q, K).hits.map((h) => h.node.path)],
  ['skillc without graph edges', (q) => rank(noGraph, q, K).hits.map((h) => h.node.path)],
  ['BM25 over raw SKILL.md', (q) => bm25(q, K)],
];
const embeddingsUrl = value('--embeddings-base-url');
if (embeddingsUrl !== undefined) {
  const meta = retriever.index.embeddings;
  if (!meta) throw new Error(`${dist} has no embeddings (build it with --embeddings openai)`);
  const embedder = embedderFrom({ embeddings: 'openai', baseURL: embeddingsUrl, model: meta.model, cacheDir: false, timeoutSeconds: 600 })!;
  const weight = Number(value('--embeddings-weight') ?? DEFAULT_DENSE_WEIGHT);
  const vectors = retriever.index.denseVectors();
  const cosines = new Map<string, Float64Array>();
  const got = await embedder.embed(rows.map((r) => r.query.slice(0, MAX_EMBEDDED_QUERY_CHARS)));
  rows.forEach((r, i) => cosines.set(r.query, denseCosines(vectors, got.vectors.subarray(i * got.dimensions, (i + 1) * got.dimensions))));
  methods.push(
    [`skillc + embeddings (${meta.model}, weight ${weight})`, (q) => rank(retriever.index, q, K, { dense: { cosines: cosines.get(q)!, weight } }).hits.map((h) => h.node.path)],
    [`embeddings alone (${meta.model})`, (q) => {
      const c = cosines.get(q)!;
      return [...c.keys()].sort((a, b) => c[b]! - c[a]! || a - b).slice(0, K).map((d) => retriever.index.parent(d).path);
    }],
  );
}

console.log(`${path.basename(queriesFile)}: ${rows.length} queries, ${parents.length} skills in ${dist}\n`);
console.log('| method | R@1 | R@5 | R@10 | MRR | Hit@10 | no hit |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
const misses: string[] = [];
for (const [name, ranker] of methods) {
  const sums = { r1: 0, r5: 0, r10: 0, mrr: 0, hit: 0, empty: 0 };
  for (const row of rows) {
    const gold = new Set(row.gold.map((g) => shaOf.get(g) ?? `missing:${g}`));
    const ranked = ranker(row.query);
    if (ranked.length === 0) sums.empty++;
    // A place may name several paths (a hit and the versions folded into it), one per line.
    const shas = ranked.map((p) => p.split('\n').map((one) => shaOf.get(one)!));
    const recall = (k: number) => new Set(shas.slice(0, k).flat().filter((s) => gold.has(s))).size / gold.size;
    const first = shas.findIndex((s) => s.some((one) => gold.has(one)));
    sums.r1 += recall(1);
    sums.r5 += recall(5);
    sums.r10 += recall(10);
    sums.mrr += first >= 0 ? 1 / (first + 1) : 0;
    sums.hit += first >= 0 && first < 10 ? 1 : 0;
    if (name.startsWith('skillc (') && first < 0) misses.push(`  ${row.query} → gold ${row.gold.join(', ')}; got ${ranked.slice(0, 3).join(', ') || 'NO_SKILL_HIT'}`);
  }
  const f = (x: number) => (x / rows.length).toFixed(3);
  console.log(`| ${name} | ${f(sums.r1)} | ${f(sums.r5)} | ${f(sums.r10)} | ${f(sums.mrr)} | ${f(sums.hit)} | ${sums.empty} |`);
}

const times: number[] = [];
for (const row of rows) {
  const s = performance.now();
  retriever.rank(row.query, K);
  times.push(performance.now() - s);
}
times.sort((a, b) => a - b);
console.log(`\nload + first query: ${coldMs.toFixed(0)} ms; warm query (rank only): median ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms, max ${times[times.length - 1]!.toFixed(1)} ms`);
if (args.includes('--misses')) console.log(`\nskillc misses (no gold skill in the top ${K}): ${misses.length}\n${misses.join('\n')}`);
