/**
 * Faithfulness and pay of a build (issue 18), from the artifacts alone. For every parsed parent:
 *
 *   lost lines  every non-blank line of the library's SKILL.md, whitespace collapsed, must occur
 *               in one line (also collapsed) of what an agent reads for it: bundles/<path>.md
 *               when the build wrote one, else skills/<path>/SKILL.md;
 *   tokens      o200k tokens of that file against the original SKILL.md (a bundle must not be
 *               bigger);
 *   library     characters of every skills/<path>/SKILL.md (the skeletons) plus, once, the
 *               readable text of each contract a skeleton invokes (rewrite/contract-text.ts over
 *               contracts/<id>.json) and of each shared passage it references (passages.json),
 *               against the characters of the original SKILL.md files.
 *
 * Prints the totals, the distribution of per-skill bundle/original token ratios, the skills with
 * lost lines (first 20) and the five largest savings. Exit 1 when a line is lost or a bundle is
 * bigger than its skill.
 *
 *   node build/bench/faithful.js <dist> [library=../shared/corpora]
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadTokenCounter } from '../src/text/bpe.js';
import { parseInvokes } from '../src/rewrite/invoke.js';
import { contractText } from '../src/rewrite/contract-text.js';
import { passageText } from '../src/rewrite/plan.js';
import type { Contract } from '../src/ir/types.js';

interface ParentJson {
  path: string;
  file: string;
}

const decoder = new TextDecoder('utf-8');

function read(file: string): string | null {
  try {
    return decoder.decode(fs.readFileSync(file));
  } catch {
    return null;
  }
}

function collapse(line: string): string {
  return line.replace(/\s+/g, ' ').trim();
}

/** The original's non-blank lines (collapsed) that occur in no line of `reads`. */
export function lostLines(original: string, reads: string): string[] {
  const have = reads.split(/\r\n|\r|\n/).map(collapse).filter((l) => l !== '');
  const exact = new Set(have);
  const lost: string[] = [];
  for (const raw of original.split(/\r\n|\r|\n/)) {
    const line = collapse(raw);
    if (line === '' || exact.has(line)) continue;
    if (!have.some((h) => h.includes(line))) lost.push(line);
  }
  return lost;
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const i = (sorted.length - 1) * q;
  const lo = Math.floor(i);
  const hi = Math.ceil(i);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (i - lo);
}

async function main(): Promise<number> {
  const [distArg, libArg] = process.argv.slice(2);
  if (!distArg) {
    process.stderr.write('usage: node build/bench/faithful.js <dist> [library=../shared/corpora]\n');
    return 2;
  }
  const dist = path.resolve(distArg);
  const library = path.resolve(libArg ?? '../shared/corpora');
  const count = await loadTokenCounter();
  const parents = (JSON.parse(fs.readFileSync(path.join(dist, 'parents.json'), 'utf8')) as { parents: ParentJson[] }).parents;
  const passagesDoc = read(path.join(dist, 'passages.json'));
  const passages = new Map(passagesDoc === null ? [] : (JSON.parse(passagesDoc) as { passages: { id: string; heading: string; text: string; slots: string[] }[] }).passages.map((p) => [p.id, p] as const));

  let originalChars = 0;
  let skeletonChars = 0;
  let skeletonTokens = 0;
  let originalTokens = 0;
  let readTokens = 0;
  let lostTotal = 0;
  const lostBy: { file: string; lines: string[] }[] = [];
  const bigger: { file: string; original: number; reads: number }[] = [];
  const ratios: number[] = [];
  /** Skeleton / original tokens of each rewritten skill. */
  const skeletonRatios: number[] = [];
  const savings: { file: string; saved: number; original: number; reads: number; contracts: string[] }[] = [];
  const contracts = new Map<string, string>();
  let rewritten = 0;

  for (const p of parents) {
    const original = read(path.join(library, p.file));
    if (original === null) continue;
    const dir = p.path === '.' ? 'skills' : `skills/${p.path}`;
    const skeleton = read(path.join(dist, dir, path.basename(p.file))) ?? '';
    const bundleFile = path.join(dist, p.path === '.' ? 'bundles/_root.md' : `bundles/${p.path}.md`);
    const bundle = read(bundleFile);
    const reads = bundle ?? skeleton;
    if (bundle !== null) rewritten++;
    const lost = lostLines(original, reads);
    if (lost.length > 0) lostBy.push({ file: p.file, lines: lost });
    lostTotal += lost.length;
    const o = count(original);
    const r = count(reads);
    originalTokens += o;
    readTokens += r;
    ratios.push(o === 0 ? 1 : r / o);
    if (r > o) bigger.push({ file: p.file, original: o, reads: r });
    const invoked = [...new Set(parseInvokes(skeleton).map((i) => i.contract))].sort();
    for (const id of invoked) {
      if (contracts.has(id)) continue;
      const passage = passages.get(id);
      if (passage) {
        contracts.set(id, passageText({ ...passage, members: [] }));
        continue;
      }
      const json = read(path.join(dist, 'contracts', `${id}.json`));
      contracts.set(id, json === null ? '' : contractText(JSON.parse(json) as Contract));
    }
    savings.push({ file: p.file, saved: o - count(skeleton), original: o, reads: r, contracts: invoked });
    originalChars += original.length;
    skeletonChars += skeleton.length;
    const sk = count(skeleton);
    skeletonTokens += sk;
    if (bundle !== null && o > 0) skeletonRatios.push(sk / o);
  }
  const contractChars = [...contracts.values()].reduce((a, t) => a + t.length, 0);
  const contractTokens = [...contracts.values()].reduce((a, t) => a + count(t), 0);
  ratios.sort((a, b) => a - b);
  skeletonRatios.sort((a, b) => a - b);
  savings.sort((a, b) => b.saved - a.saved || (a.file < b.file ? -1 : 1));

  const out: string[] = [];
  out.push(`parents: ${parents.length}, with a bundle (rewritten): ${rewritten}`);
  out.push(`lost lines: ${lostTotal} in ${lostBy.length} skills`);
  out.push(`bundles bigger than their skill (o200k tokens): ${bigger.length}`);
  out.push(`tokens an agent reads: ${readTokens} of ${originalTokens} original (${(readTokens / Math.max(1, originalTokens)).toFixed(4)})`);
  out.push(`per-skill read/original ratio: min ${ratios[0]?.toFixed(3)}, p10 ${quantile(ratios, 0.1).toFixed(3)}, median ${quantile(ratios, 0.5).toFixed(3)}, p90 ${quantile(ratios, 0.9).toFixed(3)}, max ${ratios[ratios.length - 1]?.toFixed(3)}`);
  out.push(`library: skeletons ${skeletonChars} + contracts and passages once ${contractChars} (${contracts.size}) = ${skeletonChars + contractChars} of ${originalChars} original characters (${((skeletonChars + contractChars) / Math.max(1, originalChars)).toFixed(4)})`);
  out.push(`library tokens: skeletons ${skeletonTokens} + contracts and passages once ${contractTokens} = ${skeletonTokens + contractTokens} of ${originalTokens} (${((skeletonTokens + contractTokens) / Math.max(1, originalTokens)).toFixed(4)})`);
  if (skeletonRatios.length > 0) {
    const q = (x: number) => quantile(skeletonRatios, x).toFixed(3);
    out.push(`per rewritten skill, skeleton/original tokens: min ${skeletonRatios[0]!.toFixed(3)}, p10 ${q(0.1)}, p25 ${q(0.25)}, median ${q(0.5)}, p75 ${q(0.75)}, p90 ${q(0.9)}, max ${skeletonRatios[skeletonRatios.length - 1]!.toFixed(3)}`);
  }
  out.push('largest savings (skeleton against original, tokens):');
  for (const s of savings.slice(0, 5)) out.push(`  ${s.saved}  ${s.file}  (${s.original} -> skeleton; reads ${s.reads}; contracts ${s.contracts.join(', ') || 'none'})`);
  if (lostBy.length > 0) {
    out.push('skills with lost lines (first 20):');
    for (const l of lostBy.slice(0, 20)) out.push(`  ${l.file}: ${l.lines.length} lost, e.g. ${JSON.stringify(l.lines[0]!.slice(0, 100))}`);
  }
  if (bigger.length > 0) {
    out.push('bundles bigger than their skill (first 10):');
    for (const b of bigger.slice(0, 10)) out.push(`  ${b.file}: ${b.original} -> ${b.reads}`);
  }
  process.stdout.write(out.join('\n') + '\n');
  return lostTotal > 0 || bigger.length > 0 ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  main().then((code) => process.exit(code), (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(2);
  });
}
