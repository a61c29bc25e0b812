/**
 * Malicious install steps on a library (issue 20): every SKILL.md under the given folder scanned
 * with src/risk/malicious.ts, and each skill with a finding listed with file:line:col, the
 * technique and the matched text, so false positives on benign corpora can be read one by one.
 *
 *   node build/bench/malicious-scan.js [library=../shared/corpora]
 */
import fs from 'node:fs';
import path from 'node:path';
import { describeFinding, scanMalicious } from '../src/risk/malicious.js';
import { LineIndex } from '../src/text/line-index.js';

function main(): number {
  const root = process.argv[2] ?? '../shared/corpora';
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) walk(rel);
      else if (e.isFile() && e.name === 'SKILL.md') files.push(rel);
    }
  };
  walk('');
  files.sort();
  let flagged = 0;
  const byTechnique = new Map<string, number>();
  const started = process.hrtime.bigint();
  for (const rel of files) {
    const text = fs.readFileSync(path.join(root, rel), 'utf8');
    const findings = scanMalicious(text);
    if (findings.length === 0) continue;
    flagged++;
    for (const t of new Set(findings.map((f) => f.technique))) byTechnique.set(t, (byTechnique.get(t) ?? 0) + 1);
    const index = new LineIndex(text);
    for (const f of findings) {
      const { line, column } = index.position(f.offset);
      process.stdout.write(`${rel}:${line}:${column} ${f.technique} [${f.pattern}] ${describeFinding(f)}: ${JSON.stringify(text.slice(f.offset, f.offset + Math.min(f.length, 100)))}\n`);
    }
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  process.stdout.write(`\n${files.length} skills scanned in ${ms.toFixed(0)} ms; ${flagged} with a finding (${((100 * flagged) / Math.max(1, files.length)).toFixed(2)}%)${[...byTechnique].map(([t, n]) => `; ${t} ${n}`).join('')}\n`);
  return 0;
}

process.exit(main());
