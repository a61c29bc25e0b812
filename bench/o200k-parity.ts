/**
 * skillc's o200k_base counter (src/text/o200k.ts) against gpt-tokenizer's countTokens, the
 * reference it replaced: counts every SKILL.md of the corpora with both and prints how many agree
 * (all must), the total tokens, and the time each takes to load (fresh process, median of 5) and
 * to count everything.
 *
 *   node build/bench/o200k-parity.js [corpora]
 */
import path from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { loadLibrary } from '../src/load/load-library.js';
import { decodeUtf8 } from '../src/text/decode.js';
import { o200kTokenCounter } from '../src/text/o200k.js';
import { coldLoadMs, timed } from './timing.js';

const root = path.resolve(process.argv[2] ?? '../shared/corpora');

const texts = loadLibrary(root).skills.map((s) => ({ path: s.file, text: decodeUtf8(s.content).text }));
const ours = o200kTokenCounter();
const a = await timed(() => texts.map((t) => ours(t.text)));
const b = await timed(() => texts.map((t) => countTokens(t.text, { disallowedSpecial: new Set() })));
const differing = texts.filter((_, i) => a.value[i] !== b.value[i]);

const oursLoad = coldLoadMs("const m = await import('./build/src/text/o200k.js'); m.makeTokenCounter(m.readO200kRankFile())('hello')");
const prebuiltLoad = coldLoadMs(
  "const m = await import('./build/src/text/o200k.js'); const fs = await import('node:fs'); m.makeTokenCounter(m.decodeRankTable(fs.readFileSync('build/bundle/o200k_base.ranks')))('hello')",
);
const theirsLoad = coldLoadMs("(await import('gpt-tokenizer/encoding/o200k_base')).countTokens('hello')");

console.log(`SKILL.md files: ${texts.length} in ${root}`);
console.log(`equal counts: ${texts.length - differing.length}/${texts.length}; total tokens ${a.value.reduce((s, n) => s + n, 0)} (skillc) vs ${b.value.reduce((s, n) => s + n, 0)} (gpt-tokenizer)`);
console.log(`count all: skillc ${a.ms.toFixed(0)} ms, gpt-tokenizer ${b.ms.toFixed(0)} ms`);
console.log(`cold load + first count (fresh process, median of 5): skillc from the prebuilt table ${prebuiltLoad.toFixed(0)} ms, from the .tiktoken file ${oursLoad.toFixed(0)} ms, gpt-tokenizer ${theirsLoad.toFixed(0)} ms`);
for (const d of differing.slice(0, 20)) console.log(`- ${d.path}`);
