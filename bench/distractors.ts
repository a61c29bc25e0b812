/**
 * A distractor library for retrieval at scale (issue 21 item 5): real public skills from the npm
 * packages listed in bench/distractor-packages.tsv (packages that bundle SKILL.md files), laid out
 * beside the corpora so that one build indexes both:
 *
 *   <out>/corpora/…        a copy of the corpora (the query sets' gold paths, read with --prefix corpora/)
 *   <out>/distractors/<package>/<skill>/SKILL.md (and the skill's other .md files)
 *
 * Each package is fetched with `npm pack --ignore-scripts` and unpacked with tar; no package code is
 * installed or run, and only markdown is kept. A skill whose SKILL.md is byte-identical to one of
 * the corpora or to one already kept is dropped (copies would only test deduplication).
 *
 *   node build/bench/distractors.js <out> [corpora]
 *   node bin/skillc.js build <out> -o <dist> -q
 *   node build/bench/retrieval.js bench/queries/skillsbench-instructions.jsonl <dist> --prefix corpora/
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { skillFiles } from './skill-files.js';

const [outArg, corporaArg] = process.argv.slice(2);
if (!outArg) {
  console.error('usage: node build/bench/distractors.js <out> [corpora]');
  process.exit(2);
}
const out = path.resolve(outArg);
const corpora = path.resolve(corporaArg ?? '../shared/corpora');
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const packages = fs
  .readFileSync(path.join(root, 'bench', 'distractor-packages.tsv'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() && !l.startsWith('#'))
  .map((l) => l.split('\t') as [string, string]);

const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** Folders holding a SKILL.md under `dir`, sorted; symbolic links are not followed. */
function skillFolders(dir: string): string[] {
  return skillFiles(dir).map((f) => path.dirname(f));
}

/** The .md files of one skill folder, recursively, relative to it (nested skills are their own). */
function markdownOf(dir: string): string[] {
  const files: string[] = [];
  const walk = (d: string, rel: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(d, e.name);
      if (e.isDirectory() && !fs.existsSync(path.join(p, 'SKILL.md'))) walk(p, path.join(rel, e.name));
      else if (e.isFile() && e.name.toLowerCase().endsWith('.md')) files.push(path.join(rel, e.name));
    }
  };
  walk(dir, '');
  return files;
}

fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(path.join(out, 'distractors'), { recursive: true });
fs.cpSync(corpora, path.join(out, 'corpora'), { recursive: true });
const seen = new Set(skillFolders(corpora).map((d) => sha(path.join(d, 'SKILL.md'))));
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'skillc-distractors-'));
let kept = 0;
for (const [name, version] of packages) {
  const dir = path.join(scratch, name.replace(/^@/, '').replace(/\//g, '__'));
  fs.mkdirSync(dir, { recursive: true });
  try {
    const tarball = execFileSync('npm', ['pack', `${name}@${version}`, '--ignore-scripts', '--silent', '--pack-destination', dir], { encoding: 'utf8' }).trim().split('\n').pop()!;
    execFileSync('tar', ['-xzf', path.join(dir, tarball), '-C', dir, '--no-same-owner', '--no-same-permissions']);
  } catch (err) {
    console.warn(`skipped ${name}@${version}: ${(err as Error).message.split('\n')[0]}`);
    continue;
  }
  let fromPackage = 0;
  for (const skill of skillFolders(dir)) {
    const digest = sha(path.join(skill, 'SKILL.md'));
    if (seen.has(digest)) continue;
    seen.add(digest);
    const rel = path.relative(path.join(dir, 'package'), skill).split(path.sep).filter((s) => s !== '.' && s !== '..');
    const target = path.join(out, 'distractors', path.basename(dir), rel.join('__') || 'root');
    for (const f of markdownOf(skill)) {
      fs.mkdirSync(path.dirname(path.join(target, f)), { recursive: true });
      fs.copyFileSync(path.join(skill, f), path.join(target, f));
    }
    fromPackage++;
  }
  kept += fromPackage;
  console.log(`${name}@${version}: ${fromPackage} skills`);
  fs.rmSync(dir, { recursive: true, force: true });
}
fs.rmSync(scratch, { recursive: true, force: true });
console.log(`\n${kept} distractor skills from ${packages.length} packages in ${path.join(out, 'distractors')}; the corpora copied to ${path.join(out, 'corpora')}`);
