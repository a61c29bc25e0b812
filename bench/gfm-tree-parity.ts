/**
 * Tree parity of skillc's GFM parse (src/text/markdown.ts) with remark-gfm's, on every SKILL.md of
 * a library: the whole mdast, positions included, must be the same. skillc runs GFM's
 * autolink-literal transform only on the blocks where it can change something; this bench is the
 * check that doing so changes nothing, and times both on one thread (interleaved, file by file, so
 * that a drift of the machine's speed falls on both alike).
 *
 *   node build/bench/gfm-tree-parity.js [library=../shared/corpora] [--show 3]
 */
import path from 'node:path';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import { loadLibrary } from '../src/load/load-library.js';
import { decodeUtf8 } from '../src/text/decode.js';
import { splitFrontmatter } from '../src/text/frontmatter.js';
import { parseMarkdown } from '../src/text/markdown.js';
import { assessParseBudget } from '../src/text/parse-budget.js';

const args = process.argv.slice(2);
const library = path.resolve(args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--show') ?? '../shared/corpora');
const show = Number(args.includes('--show') ? args[args.indexOf('--show') + 1] : 3);
const remark = unified().use(remarkParse).use(remarkFrontmatter, ['yaml']).use(remarkGfm).freeze();

const source = loadLibrary(library, {});
const docs = source.skills.flatMap((s) => {
  const text = decodeUtf8(s.content).text;
  // Bodies over the parse budget are never given to the parser.
  return assessParseBudget(text, splitFrontmatter(text).frontmatter.raw.length) ? [] : [{ file: s.file, text }];
});
let same = 0;
let refMs = 0;
let ownMs = 0;
const differing: string[] = [];
for (const d of docs) {
  let t = performance.now();
  const a = remark.parse(d.text);
  refMs += performance.now() - t;
  t = performance.now();
  const b = parseMarkdown(d.text);
  ownMs += performance.now() - t;
  if (JSON.stringify(a) === JSON.stringify(b)) same++;
  else differing.push(d.file);
}
const bytes = docs.reduce((n, d) => n + Buffer.byteLength(d.text), 0);
console.log(`${docs.length} SKILL.md within the parse budget, ${(bytes / 1e6).toFixed(1)} MB`);
console.log(`identical trees: ${same} of ${docs.length}`);
for (const f of differing.slice(0, show)) console.log(`  differs: ${f}`);
console.log(`remark-gfm: ${(refMs / 1000).toFixed(1)} s; skillc: ${(ownMs / 1000).toFixed(1)} s (${(ownMs / refMs).toFixed(3)}x)`);
process.exitCode = differing.length === 0 ? 0 : 1;
