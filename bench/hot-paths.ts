/**
 * The per-skill functions a cold build spends most of its main-process time in, timed over a whole
 * library in one process, and optionally against the same functions of another checkout (its
 * compiled build/src), interleaved run by run so that the machine's drift falls on both alike.
 * Prints the median of each and whether the two give the same results (they must: each rewrite of
 * these functions claims to change their speed only).
 *
 *   node build/bench/hot-paths.js [library] [--against <checkout>] [--runs 5]
 *
 * e.g. `git worktree add /tmp/old <rev> && (cd /tmp/old && npm ci && npm run build)`, then
 * `node build/bench/hot-paths.js ../shared/corpora --against /tmp/old`.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadLibrary } from '../src/load/load-library.js';
import { parseOne } from '../src/passes/parse.js';
import type { Parent } from '../src/ir/types.js';
import type { SparseVector, TermCounts } from '../src/propose/tfidf.js';
import { FIELDS } from '../src/graph/types.js';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const against = flag('--against');
const runs = Number(flag('--runs') ?? 5);
const root = path.resolve(args[0] ?? '../shared/corpora');

/** The functions timed, from one checkout's compiled sources. */
interface HotPaths {
  readonly stableStringify: (value: unknown, indent?: number) => string;
  readonly parentJson: (p: Parent) => unknown;
  readonly termCounts: (text: string) => unknown;
  readonly countTokens: (text: string) => number;
  readonly skillIO: (p: Parent) => unknown;
  readonly bodyKeysOf: (p: Parent) => unknown;
  readonly tfidf: (docs: readonly TermCounts[]) => { vectors: SparseVector[] };
  readonly topTerms: (v: SparseVector, k: number) => number[];
  readonly lexicon: (docNodes: readonly number[], fields: readonly (readonly TermCounts[])[]) => unknown;
  readonly semEdges: (vectors: readonly SparseVector[], parentIds: readonly string[]) => unknown;
  readonly wfEdges: (parents: readonly Parent[], parentIds: readonly string[]) => unknown;
  /** The propose pass over the parents alone (no copies or passages set aside): frames, TF-IDF, linkage, chains, templates. */
  readonly propose: (parents: readonly Parent[]) => unknown;
  readonly actionLineTexts: (u: Parent['units'][number]) => unknown;
}

async function hotPaths(srcDir: string): Promise<HotPaths> {
  const load = (m: string) => import(pathToFileURL(path.join(srcDir, m)).href);
  const [json, artifacts, tfidf, o200k, io, detect, lexicon, sem, wf, propose, policy, actions] = await Promise.all([
    load('util/stable-json.js'),
    load('emit/artifacts.js'),
    load('propose/tfidf.js'),
    load('text/o200k.js'),
    load('graph/artifacts.js'),
    load('passages/detect.js'),
    load('graph/lexicon.js'),
    load('graph/edges/sem.js'),
    load('graph/edges/wf.js'),
    load('passes/propose.js'),
    load('policy/policy.js'),
    load('extract/action-lines.js'),
  ]);
  const lex = io.loadArtifactLexicon();
  return {
    stableStringify: json.stableStringify,
    parentJson: artifacts.parentJson,
    termCounts: tfidf.termCounts,
    countTokens: o200k.o200kTokenCounter(),
    skillIO: (p) => io.skillIO(p, lex),
    bodyKeysOf: detect.bodyKeysOf,
    tfidf: tfidf.buildTfidfFromCounts,
    topTerms: tfidf.topTerms,
    lexicon: lexicon.buildLexiconFromCounts,
    semEdges: (vectors, parentIds) => sem.semRule.build({ vectors, parentIds }),
    wfEdges: (parents, parentIds) => wf.wfRule.build({ parents, parentIds }),
    actionLineTexts: actions.actionLineTexts,
    propose: (parents) => propose.proposePass.run({ parents, policy: policy.loadPolicy() }, { progress: () => {}, report: () => {}, jobs: 1 }),
  };
}

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');
const mine = await hotPaths(here);
const theirs = against ? await hotPaths(path.resolve(against, 'build', 'src')) : undefined;

const parents = loadLibrary(root)
  .skills.map((s) => parseOne(s).parent)
  .filter((p): p is Parent => p !== null);
const units = parents.flatMap((p) => p.units.map((u) => u.text));
const bodies = parents.map((p) => p.units.map((u) => u.text).join(''));
const doc = { parents: parents.map((p) => mine.parentJson(p)) };
const unitCounts = units.map((u) => mine.termCounts(u) as TermCounts);
const unitVectors = mine.tfidf(unitCounts).vectors;
const bodyVectors = mine.tfidf(bodies.map((b) => mine.termCounts(b) as TermCounts)).vectors;
const parentIds = parents.map((p) => `parent:${p.path}`);
// The graph's fields without the ones that depend on contracts (io, templates): what the lexicon is built from.
const fieldCounts = parents.map((p, i) =>
  FIELDS.map((f) => mine.termCounts(f === 'name' ? String(p.frontmatter.data?.['name'] ?? p.path) : f === 'description' ? String(p.frontmatter.data?.['description'] ?? '') : f === 'headings' ? p.units.flatMap((u) => (u.heading ? [u.heading] : [])).join('\n') : f === 'body' ? bodies[i]! : '') as TermCounts),
);

const cases: { name: string; run: (h: HotPaths) => unknown }[] = [
  { name: `stableStringify of parents.json (${(mine.stableStringify(doc).length / 1e6).toFixed(0)} MB)`, run: (h) => h.stableStringify(doc) },
  { name: `termCounts of ${units.length} units`, run: (h) => units.map(h.termCounts) },
  { name: `o200k count of ${bodies.length} skill bodies`, run: (h) => bodies.map(h.countTokens) },
  { name: `skillIO of ${parents.length} parents`, run: (h) => parents.map(h.skillIO) },
  { name: `bodyKeysOf of ${parents.length} parents`, run: (h) => parents.map(h.bodyKeysOf) },
  { name: `TF-IDF vectors of ${units.length} units`, run: (h) => h.tfidf(unitCounts).vectors },
  { name: `topTerms (8) of ${units.length} unit vectors`, run: (h) => unitVectors.map((v) => h.topTerms(v, 8)) },
  { name: `BM25F lexicon of ${parents.length} parents`, run: (h) => h.lexicon(parentIds.map((_, i) => i), fieldCounts) },
  { name: `sem edges of ${parents.length} parents`, run: (h) => h.semEdges(bodyVectors, parentIds) },
  { name: `wf edges of ${parents.length} parents`, run: (h) => h.wfEdges(parents, parentIds) },
  { name: `action lines of ${units.length} units`, run: (h) => parents.flatMap((p) => p.units.map(h.actionLineTexts)) },
  { name: `propose pass over ${parents.length} parents`, run: (h) => h.propose(parents) },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
console.log(`library ${root}: ${parents.length} skills; ${runs} runs each${theirs ? `, interleaved with ${against}` : ''}`);
for (const c of cases) {
  const ours: number[] = [];
  const other: number[] = [];
  let same = true;
  for (let r = 0; r < runs; r++) {
    if (theirs) {
      const t0 = performance.now();
      const a = c.run(theirs);
      other.push(performance.now() - t0);
      const t1 = performance.now();
      const b = c.run(mine);
      ours.push(performance.now() - t1);
      if (r === 0) same = JSON.stringify(a) === JSON.stringify(b);
    } else {
      const t1 = performance.now();
      c.run(mine);
      ours.push(performance.now() - t1);
    }
  }
  console.log(`${c.name}: ${theirs ? `${median(other).toFixed(0)} ms -> ` : ''}${median(ours).toFixed(0)} ms${theirs ? (same ? ', same results' : ', RESULTS DIFFER') : ''}`);
  if (!same) process.exitCode = 1;
}
