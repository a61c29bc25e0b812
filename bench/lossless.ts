/**
 * Lossless check of a build's parents.json against the library it came from, using nothing of
 * skillc but the artifact: for every parsed parent, frontmatter.raw + the units' texts must equal
 * the SKILL.md decoded as WHATWG UTF-8, each unit's [start, end) must be its text, and the units
 * must be contiguous. Prints the count of parents checked and of mismatches; exit 1 on a mismatch.
 *
 *   node build/bench/lossless.js <dist> <library>
 */
import fs from 'node:fs';
import path from 'node:path';

interface UnitJson { id: string; start: number; end: number; text: string }
interface ParentJson { path: string; file: string; frontmatter: { raw: string }; units: UnitJson[] }

function main(): number {
  const [dist, library] = process.argv.slice(2);
  if (!dist || !library) {
    process.stderr.write('usage: node build/bench/lossless.js <dist> <library>\n');
    return 2;
  }
  const doc = JSON.parse(fs.readFileSync(path.join(dist, 'parents.json'), 'utf8')) as { parents: ParentJson[]; skipped: unknown[] };
  const decoder = new TextDecoder('utf-8');
  let checked = 0;
  const mismatches: string[] = [];
  for (const p of doc.parents) {
    checked++;
    const text = decoder.decode(fs.readFileSync(path.join(library, p.file)));
    const joined = p.frontmatter.raw + p.units.map((u) => u.text).join('');
    if (joined !== text) {
      let i = 0;
      while (i < joined.length && joined[i] === text[i]) i++;
      mismatches.push(`${p.file}: reconstruction differs at index ${i} (reconstructed ${joined.length} chars, file ${text.length})`);
      continue;
    }
    let cursor = p.frontmatter.raw.length;
    for (const u of p.units) {
      if (u.start !== cursor) mismatches.push(`${p.file}: unit ${u.id} starts at ${u.start}, expected ${cursor}`);
      if (text.slice(u.start, u.end) !== u.text) mismatches.push(`${p.file}: unit ${u.id} text is not text.slice(${u.start}, ${u.end})`);
      cursor = u.end;
    }
    if (cursor !== text.length) mismatches.push(`${p.file}: units end at ${cursor}, file has ${text.length} chars`);
  }
  for (const m of mismatches.slice(0, 50)) process.stdout.write(m + '\n');
  process.stdout.write(`parents checked: ${checked}, skipped by the build: ${doc.skipped.length}, mismatches: ${mismatches.length}\n`);
  return mismatches.length === 0 ? 0 : 1;
}

process.exitCode = main();
