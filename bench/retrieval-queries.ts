/**
 * Builds retrieval query sets from the corpora as JSONL {query, gold: [skill paths]}, with no
 * hand-written queries and no tuning (the sets were generated once, before measuring):
 *
 * - skillsbench-tasks: every task folder of corpora/skillsbench is a task whose skills are the
 *   folders inside it (SkillsBench ships each task with the skills it needs, as SkillFlow's
 *   evaluation does). Query: the task folder name in words ("dapt-intrusion-detection" → "dapt
 *   intrusion detection"); gold: the task's skills. The task folder is not part of any indexed
 *   field, so the query text does not leak through the path.
 * - descriptions: a seeded sample of skills with a description of at least 60 characters; query:
 *   the description's first sentence with the words of the skill's name removed; gold: the skill.
 *   A known-item set: the description is indexed, so it measures ranking among near-duplicates.
 *   A query that another skill's description gives word for word is left out: it names no item.
 *
 *   node build/bench/retrieval-queries.js [corpora] [--sample 200] [--seed 1]
 * Writes bench/queries/skillsbench-tasks.jsonl and bench/queries/descriptions.jsonl.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { seededRng, shuffled } from '../src/calibrate/random.js';

const args = process.argv.slice(2);
const corpora = path.resolve(args.find((a) => !a.startsWith('--')) ?? '../shared/corpora');
const sample = Number(args[args.indexOf('--sample') + 1] ?? 200) || 200;
const seed = Number(args[args.indexOf('--seed') + 1] ?? 1) || 1;
const out = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../bench/queries');

function skillDirs(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (!e.isDirectory()) continue;
      const sub = path.join(dir, e.name);
      if (fs.existsSync(path.join(sub, 'SKILL.md'))) found.push(sub);
      else walk(sub);
    }
  };
  walk(root);
  return found;
}

const rel = (p: string) => path.relative(corpora, p).split(path.sep).join('/');
const lines = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

// skillsbench-tasks
const bench = path.join(corpora, 'skillsbench');
const tasks = fs.readdirSync(bench, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
const taskRows = tasks
  .map((t) => ({ query: t.replace(/[-_]+/g, ' '), gold: skillDirs(path.join(bench, t)).map(rel) }))
  .filter((r) => r.gold.length > 0);

// descriptions
const all = skillDirs(corpora);
const withDescription = all.flatMap((dir) => {
  const text = fs.readFileSync(path.join(dir, 'SKILL.md'), 'utf8');
  const m = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (!m) return [];
  let data: unknown;
  try {
    data = parseDocument(m[1]!).toJS();
  } catch {
    return [];
  }
  const d = (data as Record<string, unknown> | null)?.['description'];
  const name = (data as Record<string, unknown> | null)?.['name'];
  if (typeof d !== 'string' || d.trim().length < 60) return [];
  const nameWords = new Set(`${typeof name === 'string' ? name : ''} ${path.basename(dir)}`.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean));
  const first = d.trim().split(/(?<=[.!?])\s/)[0]!;
  const query = first.split(/\s+/).filter((w) => !nameWords.has(w.toLowerCase().replace(/[^a-z0-9]/g, ''))).join(' ');
  return query.split(/\s+/).length >= 4 ? [{ query, gold: [rel(dir)] }] : [];
});
// A query that is word for word another skill's query names no item: 768 composio skills share
// "Automate <name> tasks via Rube MCP (Composio).", which without the name is one query for all of
// them, and any ranking puts its gold among 767 equals by chance. Such queries are dropped.
const normal = (q: string) => q.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
const owners = new Map<string, number>();
for (const r of withDescription) owners.set(normal(r.query), (owners.get(normal(r.query)) ?? 0) + 1);
const identifying = withDescription.filter((r) => owners.get(normal(r.query)) === 1);
const picked = shuffled(identifying, seededRng(seed));
const descRows = picked.slice(0, sample).sort((a, b) => (a.gold[0]! < b.gold[0]! ? -1 : 1));

fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, 'skillsbench-tasks.jsonl'), lines(taskRows));
fs.writeFileSync(path.join(out, 'descriptions.jsonl'), lines(descRows));
console.log(`skillsbench-tasks: ${taskRows.length} queries, ${taskRows.reduce((a, r) => a + r.gold.length, 0)} gold skills`);
console.log(`descriptions: ${descRows.length} queries (of ${identifying.length} skills whose query is their own, ${withDescription.length} with a description)`);
