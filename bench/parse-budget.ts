/**
 * Checks the parse budget (src/text/parse-budget.ts) on real and hostile input:
 * 1. every SKILL.md of a library: the cost estimates, how many bodies are over a budget (each one
 *    listed with its reason), and the slowest full parses next to their estimates, so a budget that
 *    misses a slow shape shows up;
 * 2. the pathological generators of bench/pathological-markdown.ts at growing sizes: the full
 *    parse's time (where it finishes in reasonable time) against skillc's bounded parse.
 *
 *   node build/bench/parse-budget.js [corpora] [--full-limit-ms 20000]
 */
import path from 'node:path';
import { loadLibrary } from '../src/load/load-library.js';
import { decodeUtf8 } from '../src/text/decode.js';
import { splitFrontmatter } from '../src/text/frontmatter.js';
import { LineIndex } from '../src/text/line-index.js';
import { parseMarkdown, splitUnits, unitsOfBody } from '../src/text/markdown.js';
import { CONTAINER_BUDGET, INLINE_BUDGET, MAX_FULL_PARSE_CHARS, MAX_NESTING, measureParseCost } from '../src/text/parse-budget.js';
import { PATHOLOGICAL, skillWith } from './pathological-markdown.js';

const args = process.argv.slice(2);
const root = path.resolve(args.find((a) => !a.startsWith('--')) ?? '../shared/corpora');

function fullParseMs(text: string, bodyStart: number): number {
  const t0 = performance.now();
  splitUnits('s', text, bodyStart, parseMarkdown(text), new LineIndex(text));
  return performance.now() - t0;
}

function boundedParseMs(text: string, bodyStart: number): { ms: number; reason: string } {
  const t0 = performance.now();
  const r = unitsOfBody('s', text, bodyStart, new LineIndex(text));
  return { ms: performance.now() - t0, reason: r.bounded?.reason ?? 'full' };
}

// Warm both paths once.
fullParseMs('# a\n\n- b *c* `d` [e](f)\n', 0);
boundedParseMs('# a\n', 0);

console.log(`budgets: body ≤ ${MAX_FULL_PARSE_CHARS} chars, nesting ≤ ${MAX_NESTING}, containers ≤ ${CONTAINER_BUDGET.toExponential(1)}, inline ≤ ${INLINE_BUDGET.toExponential(1)}\n`);

const skills = loadLibrary(root).skills;
const rows: { file: string; chars: number; depth: number; containers: number; inline: number; ms: number; over: string[] }[] = [];
for (const s of skills) {
  const text = decodeUtf8(s.content).text;
  const bodyStart = splitFrontmatter(text).frontmatter.raw.length;
  const cost = measureParseCost(text, bodyStart);
  const over = Object.entries(cost.over).filter(([, b]) => b !== null).map(([k]) => k);
  if (cost.chars > MAX_FULL_PARSE_CHARS) over.push('size');
  rows.push({ file: s.file, chars: cost.chars, depth: cost.maxDepth, containers: cost.containerCost, inline: cost.inlineCost, ms: fullParseMs(text, bodyStart), over });
}
const max = (f: (r: (typeof rows)[number]) => number) => rows.reduce((m, r) => Math.max(m, f(r)), 0);
const pct = (f: (r: (typeof rows)[number]) => number, q: number) => {
  const v = rows.map(f).sort((a, b) => a - b);
  return v[Math.min(v.length - 1, Math.floor(q * v.length))]!;
};
console.log(`${rows.length} SKILL.md in ${root}`);
console.log(`  nesting     p99 ${pct((r) => r.depth, 0.99)}, max ${max((r) => r.depth)} (limit ${MAX_NESTING})`);
console.log(`  containers  p99 ${pct((r) => r.containers, 0.99).toExponential(2)}, max ${max((r) => r.containers).toExponential(2)} (budget ${CONTAINER_BUDGET.toExponential(1)})`);
console.log(`  inline      p99 ${pct((r) => r.inline, 0.99).toExponential(2)}, max ${max((r) => r.inline).toExponential(2)} (budget ${INLINE_BUDGET.toExponential(1)})`);
console.log(`  body chars  max ${max((r) => r.chars)} (limit ${MAX_FULL_PARSE_CHARS})`);
const bounded = rows.filter((r) => r.over.length > 0);
console.log(`  over a budget: ${bounded.length}${bounded.map((r) => `\n    ${r.file}: ${r.over.join(', ')}`).join('')}`);
console.log('  slowest full parses (ms, chars, depth, containers, inline):');
for (const r of [...rows].sort((a, b) => b.ms - a.ms).slice(0, 8)) console.log(`    ${r.ms.toFixed(1)} ms  ${r.chars}  ${r.depth}  ${r.containers.toExponential(1)}  ${r.inline.toExponential(1)}  ${r.file}`);

const fullLimitIndex = args.indexOf('--full-limit-ms');
const fullLimit = fullLimitIndex >= 0 ? Number(args[fullLimitIndex + 1]) : 20000;
const sizes: Record<string, number[]> = {
  separateLists: [1000, 2000, 4000, 10000],
  separateQuotes: [1000, 2000, 4000, 10000],
  nestedList: [100, 200, 400, 1000],
  nestedQuotes: [1000, 4000, 10000],
  unmatchedEmphasis: [1000, 2000, 4000, 20000],
  nestedStrong: [250, 500, 1000, 5000],
  backtickRuns: [1000, 4000, 16000],
  ordinarySections: [2000, 8000, 32000, 160000],
};
console.log('\npathological bodies: full parse vs skillc (the full parse is skipped once a smaller size took over the limit)');
for (const [name, gen] of Object.entries(PATHOLOGICAL)) {
  let skipFull = false;
  for (const n of sizes[name] ?? [1000]) {
    const text = skillWith(gen(n));
    const bodyStart = splitFrontmatter(text).frontmatter.raw.length;
    let full = 'skipped';
    if (!skipFull) {
      try {
        const ms = fullParseMs(text, bodyStart);
        full = `${ms.toFixed(0)} ms`;
        if (ms * 4 > fullLimit) skipFull = true;
      } catch (err) {
        full = err instanceof RangeError ? 'stack overflow' : String(err);
      }
    }
    const ours = boundedParseMs(text, bodyStart);
    console.log(`  ${name.padEnd(18)} n=${String(n).padEnd(6)} ${String(text.length).padStart(9)} chars  full ${full.padEnd(15)} skillc ${ours.ms.toFixed(0)} ms (${ours.reason})`);
  }
}
