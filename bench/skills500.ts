/**
 * Materialises the skills500-approx library (the 412 of GoS skills_500 found in the corpora; see
 * corpora/skills500-approx.tsv) as a real folder, copying each listed skill folder under its name,
 * so that `skillc build` can run on the library closest to the SaP paper's.
 *
 *   node build/bench/skills500.js [corpora=../shared/corpora] [out=/tmp/skills500]
 */
import fs from 'node:fs';
import path from 'node:path';

function main(): number {
  const corpora = process.argv[2] ?? '../shared/corpora';
  const out = process.argv[3] ?? '/tmp/skills500';
  const tsv = fs.readFileSync(path.join(corpora, 'skills500-approx.tsv'), 'utf8').split('\n').slice(1).filter((l) => l.trim() !== '');
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  let copied = 0;
  const missing: string[] = [];
  for (const line of tsv) {
    const [name, rel] = line.split('\t');
    if (!name || !rel) continue;
    const src = path.join(corpora, rel);
    if (!fs.existsSync(path.join(src, 'SKILL.md'))) {
      missing.push(rel);
      continue;
    }
    fs.cpSync(src, path.join(out, name), { recursive: true, verbatimSymlinks: true });
    copied++;
  }
  process.stdout.write(`copied ${copied} skills to ${out}${missing.length ? `; missing: ${missing.join(', ')}` : ''}\n`);
  return missing.length === 0 ? 0 : 1;
}

process.exitCode = main();
