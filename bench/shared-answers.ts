/**
 * What answers gain from stating a shared section once (issue 18 item 4): for each query, the
 * same ranking hydrated twice under one budget, without and with the dist's passages.json, and
 * the hits fully hydrated, the pointers written and the tokens charged.
 *
 *   node build/bench/shared-answers.js <dist> [k=8] [budget=8000]
 */
import { loadGraphIndex } from '../src/query/graph-index.js';
import { rank } from '../src/query/rank.js';
import { hydrate, tokenBound } from '../src/query/hydrate.js';
import { preamble } from '../src/query/render.js';
import { loadSharedSections } from '../src/query/shared-sections.js';

const QUERIES = [
  'send a slack message and create a github issue',
  'automate gmail and google calendar tasks',
  'manage hubspot contacts and salesforce leads',
  'post to twitter and linkedin',
  'create notion pages and trello cards',
  'react performance best practices',
  'optimize prompts for an llm',
  'create data visualizations from sales data',
];

async function main(): Promise<void> {
  const [dist, kArg, budgetArg] = process.argv.slice(2);
  if (!dist) throw new Error('usage: node build/bench/shared-answers.js <dist> [k] [budget]');
  const k = Number(kArg ?? 8);
  const budget = Number(budgetArg ?? 8000);
  const index = loadGraphIndex(dist);
  const shared = loadSharedSections(dist);
  const totals = { full: [0, 0], charged: [0, 0], pointers: 0 };
  for (const q of QUERIES) {
    const hits = rank(index, q, k).hits;
    const room = budget - tokenBound(preamble(q, Math.max(k, 2), budget, budget));
    const plain = await hydrate(dist, hits, room);
    const withShared = await hydrate(dist, hits, room, shared);
    const full = [plain, withShared].map((hs) => hs.filter((h) => h.hydration === 'full').length);
    const charged = [plain, withShared].map((hs) => hs.reduce((a, h) => a + h.cost, 0));
    const pointers = withShared.reduce((n, h) => n + (h.text.match(/\[skillc: the same text as under/g) ?? []).length, 0);
    totals.full[0]! += full[0]!;
    totals.full[1]! += full[1]!;
    totals.charged[0]! += charged[0]!;
    totals.charged[1]! += charged[1]!;
    totals.pointers += pointers;
    process.stdout.write(`${JSON.stringify(q)}: full hits ${full[0]} -> ${full[1]}, pointers ${pointers}, charged ${charged[0]} -> ${charged[1]}\n`);
  }
  process.stdout.write(`all: full hits ${totals.full[0]} -> ${totals.full[1]}, pointers ${totals.pointers}, charged ${totals.charged[0]} -> ${totals.charged[1]}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
});
