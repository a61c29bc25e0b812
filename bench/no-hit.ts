/**
 * NO_SKILL_HIT on both sides (issue 21 item 2): every query of the dev sets (real tasks, which
 * should get hits whatever their length) and a fixed list of nonsense and off-topic queries, with
 * each query's length in terms, its coverage and the terms no skill holds.
 *
 *   node build/bench/no-hit.js [dist] [queries.jsonl ...]
 */
import fs from 'node:fs';
import path from 'node:path';
import { openRetriever } from '../src/query/retriever.js';

const NONSENSE = [
  'xyzzy plugh frobnicate',
  'asdf qwer zxcv',
  'zzzz yyyy xxxx',
  'aaaa bbbb cccc dddd',
  'blorft snazzle wibble quorp',
  'lkjh gfds poiu mnbv',
  'glorp the frabjous wumpus then snark it',
  'zorblax quuxification flibbertigibbet wombatry',
  'resize zorblax quuxification flibbertigibbet wombatry',
  'lorem ipsum dolor sit amet consectetur adipiscing elit',
  'my grandmother knits scarves every winter',
  'purple elephants dancing quietly in moonlight',
  'bake sourdough bread with a rye starter',
  'the quick brown fox jumps over the lazy dog',
];

const args = process.argv.slice(2);
const dist = path.resolve(args[0] ?? 'dist');
const sets = args.length > 1 ? args.slice(1) : ['bench/queries/skillsbench-instructions.jsonl', 'bench/queries/skillsbench-tasks.jsonl', 'bench/queries/descriptions.jsonl'];
const retriever = openRetriever(dist);

console.log('| dev set | queries | terms (median, max) | NO_SKILL_HIT | lowest coverage |');
console.log('|---|---:|---:|---:|---:|');
for (const set of sets) {
  const queries = fs.readFileSync(set, 'utf8').split('\n').filter((l) => l.trim()).map((l) => (JSON.parse(l) as { query: string }).query);
  const ranked = queries.map((q) => retriever.rank(q, 10));
  const terms = ranked.map((r) => r.terms.length).sort((a, b) => a - b);
  const none = ranked.filter((r) => r.hits.length === 0).length;
  const lowest = Math.min(...ranked.map((r) => r.coverage));
  console.log(`| ${path.basename(set)} | ${queries.length} | ${terms[Math.floor(terms.length / 2)]}, ${terms[terms.length - 1]} | ${none} | ${lowest.toFixed(2)} |`);
}
console.log('\n| nonsense or off-topic query | terms | unknown | coverage | answer |');
console.log('|---|---:|---:|---:|---|');
for (const q of NONSENSE) {
  const r = retriever.rank(q, 10);
  console.log(`| ${q} | ${r.terms.length} | ${r.unknownTerms.length} | ${r.coverage.toFixed(2)} | ${r.hits.length === 0 ? 'NO_SKILL_HIT' : `hit: ${r.hits[0]!.node.path}`} |`);
}
