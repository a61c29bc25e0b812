/**
 * `skillc explain <cluster-or-contract-id> --dist <dist>`: why a candidate was promoted or
 * rejected — its profile, the witness or the rejection cause with evidence, the risk findings, and
 * the member units with file:line. Reads only dist/candidates.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CommandIO } from './build-command.js';
import type { CandidateRecord as Candidate } from '../ir/types.js';

export function explainCommand(id: string, opts: { dist: string; json?: boolean }, io: CommandIO): number {
  const file = path.join(opts.dist, 'candidates.json');
  let doc: { candidates: Candidate[] };
  try {
    doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { candidates: Candidate[] };
  } catch (e) {
    io.stderr.write(`skillc explain: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)} (build the library first: skillc build <library> -o ${opts.dist})\n`);
    return 2;
  }
  const found = doc.candidates.find((c) => c.cluster.id === id || c.profile.contract === id);
  if (!found) {
    const near = doc.candidates.flatMap((c) => [c.cluster.id, c.profile.contract ?? '']).filter((x) => x && (x.startsWith(id) || x.includes(id))).slice(0, 5);
    io.stderr.write(`skillc explain: no cluster or contract '${id}' in ${file}${near.length ? `; did you mean ${near.join(', ')}?` : ''}\n`);
    return 2;
  }
  if (opts.json) {
    io.stdout.write(JSON.stringify(found, null, 2) + '\n');
    return 0;
  }
  io.stdout.write(renderExplanation(found));
  return 0;
}

export function renderExplanation(c: Candidate): string {
  const p = c.profile;
  const s = p.scores;
  const L: string[] = [];
  L.push(`cluster ${c.cluster.id}${p.contract ? `  contract ${p.contract}` : ''}`);
  L.push(`decision: ${p.decision}${p.firstFailed ? `  (first failed check: ${p.firstFailed})` : ''}  score ${p.score}`);
  L.push(`scores: coverage ${s.coverage} (min ${s.coverageMin})  binding ${s.binding}  replacement ${s.replacement}  risk ${s.risk}`);
  L.push(`reason: ${p.reason}`);
  if (c.extractionFailure) L.push(`extraction: ${c.extractionFailure}`);
  if (p.evidence.length > 0) {
    L.push(p.decision === 'reject' ? 'evidence:' : 'witness:');
    for (const e of p.evidence.slice(0, 40)) L.push(`  ${e.file}:${e.line}  ${e.detail}`);
    if (p.evidence.length > 40) L.push(`  … ${p.evidence.length - 40} more`);
  }
  if (p.risks.length > 0) {
    L.push('risk findings:');
    for (const r of p.risks.slice(0, 40)) L.push(`  ${r.file}:${r.line}:${r.column}  ${r.sink} (${r.category}, ${r.weight})${r.declared ? ' declared' : ''}  ${r.snippet}`);
  }
  L.push(`members: ${c.members.length} units from ${c.cluster.parents.length} parents (verb ${c.cluster.verb}${c.cluster.objects.length ? `, objects ${c.cluster.objects.join(', ')}` : ''})`);
  for (const m of c.members.slice(0, 60)) L.push(`  ${m.file}:${m.line}  ${m.heading ?? '(preamble)'}`);
  if (c.members.length > 60) L.push(`  … ${c.members.length - 60} more`);
  return L.join('\n') + '\n';
}
