/**
 * Parse parity (issue 22 item 2): a faster parser may replace today's (remark: micromark with
 * frontmatter and GFM) only if it gives the same units, code blocks, inline code, links and
 * bullets, with the same offsets, on every file. This bench runs a candidate beside today's parser
 * over every SKILL.md of a library and reports, per feature, how many files agree exactly, the
 * first disagreements, and each parser's throughput (MB/s of SKILL.md, one thread).
 *
 * Candidates:
 * - `fast`: markdown-it's tokens read back onto the source (src/text/fast-markdown.ts), declining
 *   every document with a construct on which it and micromark are known to part; declined files are
 *   counted by reason and parsed by remark in the build, so parity is measured on the accepted ones,
 *   and the time given is the build's (fast path, then remark for the declined).
 * - `scan`: skillc's own line-level scan (src/text/block-scan.ts), today used only for bodies over
 *   the parse budget. It is linear and about two orders of magnitude faster, but lenient by design
 *   (no emphasis, HTML blocks, indented code or lazy continuation).
 *
 *   node build/bench/parse-parity.js [library=../shared/corpora] [--show 5] [--candidate fast|scan]
 */
import path from 'node:path';
import { loadLibrary } from '../src/load/load-library.js';
import { decodeUtf8 } from '../src/text/decode.js';
import { splitFrontmatter } from '../src/text/frontmatter.js';
import { LineIndex } from '../src/text/line-index.js';
import { parseMarkdown, splitUnits, type SplitUnits } from '../src/text/markdown.js';
import { scanUnits } from '../src/text/block-scan.js';
import { fastSplitUnits } from '../src/text/fast-markdown.js';
import { assessParseBudget } from '../src/text/parse-budget.js';
import type { Unit } from '../src/ir/types.js';

const args = process.argv.slice(2);
const library = path.resolve(args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--show' && args[i - 1] !== '--candidate') ?? '../shared/corpora');
const show = Number(args.includes('--show') ? args[args.indexOf('--show') + 1] : 5);
const candidateName = args.includes('--candidate') ? args[args.indexOf('--candidate') + 1]! : 'fast';
if (candidateName !== 'fast' && candidateName !== 'scan') throw new Error(`unknown candidate ${candidateName}`);

type Feature = 'units' | 'codeBlocks' | 'inlineCode' | 'links' | 'bullets' | 'unclosedFences' | 'every field';
const FEATURES: readonly Feature[] = ['units', 'codeBlocks', 'inlineCode', 'links', 'bullets', 'unclosedFences', 'every field'];

/** What parity means for each feature: these fields, in this order, for every item. */
function view(split: SplitUnits, feature: Feature): string[] {
  const all = <T>(f: (u: Unit) => readonly T[]) => split.units.flatMap(f);
  switch (feature) {
    case 'units':
      return split.units.map((u) => JSON.stringify([u.start, u.end, u.kind, u.level, u.heading, u.headingPath]));
    case 'codeBlocks':
      return all((u) => u.codeBlocks).map((c) => JSON.stringify([c.start, c.end, c.lang, c.meta, c.value, c.fenced, c.closed]));
    case 'inlineCode':
      return all((u) => u.inlineCode).map((c) => JSON.stringify([c.start, c.value]));
    case 'links':
      return all((u) => u.links).map((l) => JSON.stringify([l.start, l.kind, l.url, l.text]));
    case 'bullets':
      return all((u) => u.bullets).map((b) => JSON.stringify([b.start, b.end, b.ordered, b.number, b.depth, b.checked, b.text]));
    case 'unclosedFences':
      return split.unclosedFences.map((f) => JSON.stringify(f));
    case 'every field':
      // Every field of every unit and feature, in the order the IR holds them.
      return split.units.map((u) => JSON.stringify(u));
  }
}

const source = loadLibrary(library, {});
const docs = source.skills.flatMap((s) => {
  const text = decodeUtf8(s.content).text;
  const bodyStart = splitFrontmatter(text).frontmatter.raw.length;
  // Bodies over the parse budget are read by the scan already; parity is about the rest.
  return assessParseBudget(text, bodyStart) ? [] : [{ file: s.file, text, bodyStart, lines: new LineIndex(text) }];
});
const bytes = docs.reduce((a, d) => a + Buffer.byteLength(d.text), 0);

let t0 = performance.now();
const reference = docs.map((d) => splitUnits(d.file, d.text, d.bodyStart, parseMarkdown(d.text), d.lines));
const refMs = performance.now() - t0;
t0 = performance.now();
const declined = new Map<string, number>();
const reread = { contents: 0, files: 0 };
const candidate: (SplitUnits | null)[] = docs.map((d) => {
  if (candidateName === 'scan') return scanUnits(d.file, d.text, d.bodyStart, d.lines);
  const fast = fastSplitUnits(d.file, d.text, d.bodyStart, d.lines);
  if (fast.ok) {
    reread.contents += fast.remarkRead;
    if (fast.remarkRead > 0) reread.files++;
    return fast.split;
  }
  declined.set(fast.reason, (declined.get(fast.reason) ?? 0) + 1);
  // The build parses a declined file with remark: count that time too.
  splitUnits(d.file, d.text, d.bodyStart, parseMarkdown(d.text), d.lines);
  return null;
});
const candMs = performance.now() - t0;

console.log(`${docs.length} SKILL.md within the parse budget, ${(bytes / 1e6).toFixed(1)} MB`);
console.log(`today's parser (remark, GFM): ${(refMs / 1000).toFixed(1)} s, ${(bytes / 1e6 / (refMs / 1000)).toFixed(2)} MB/s`);
if (candidateName === 'scan') console.log(`scan (block-scan.ts): ${(candMs / 1000).toFixed(2)} s, ${(bytes / 1e6 / (candMs / 1000)).toFixed(1)} MB/s`);
else {
  const accepted = candidate.filter((c) => c !== null).length;
  console.log(`fast path (fast-markdown.ts), declined files parsed by remark: ${(candMs / 1000).toFixed(2)} s, ${(bytes / 1e6 / (candMs / 1000)).toFixed(2)} MB/s (${(refMs / candMs).toFixed(1)}x)`);
  console.log(`inline contents the fast path doubted and remark read: ${reread.contents}, in ${reread.files} of the accepted files`);
  console.log(`accepted ${accepted} of ${docs.length} files (${((100 * accepted) / docs.length).toFixed(1)}%); declined: ${[...declined].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${r} ${n}`).join(', ') || 'none'}`);
}
const compared = docs.flatMap((d, i) => (candidate[i] ? [i] : []));
let allSame = 0;
const same = new Map<Feature, number>(FEATURES.map((f) => [f, 0]));
const examples = new Map<Feature, string[]>(FEATURES.map((f) => [f, []]));
compared.forEach((i) => {
  const d = docs[i]!;
  let whole = true;
  for (const f of FEATURES) {
    const a = view(reference[i]!, f);
    const b = view(candidate[i]!, f);
    if (a.join('\n') === b.join('\n')) {
      same.set(f, same.get(f)! + 1);
      continue;
    }
    whole = false;
    const ex = examples.get(f)!;
    if (ex.length < show) {
      const k = a.findIndex((x, j) => x !== b[j]);
      const at = k < 0 ? a.length : k;
      ex.push(`${d.file}: item ${at}: today ${a[at] ?? '(none)'} | ${candidateName} ${b[at] ?? '(none)'}`);
    }
  }
  if (whole) allSame++;
});
for (const f of FEATURES) {
  console.log(`${f}: ${same.get(f)} of ${compared.length} files identical (${((100 * same.get(f)!) / compared.length).toFixed(1)}%)`);
  for (const e of examples.get(f)!) console.log(`  ${e.slice(0, 300)}`);
}
console.log(`every feature identical: ${allSame} of ${compared.length} files (${((100 * allSame) / compared.length).toFixed(1)}%)`);
if (candidateName === 'fast' && allSame !== compared.length) process.exitCode = 1;
