/**
 * `skillc explain <cluster-or-contract-id> --dist <dist>`: why a candidate was promoted or
 * rejected — its profile, the witness or the rejection cause with evidence, the risk findings, and
 * the member units with file:line. Reads only dist/candidates.json.
 *
 * The file is read through util/confined-read (a regular file inside the dist, at most 256 MiB).
 * Before the lookup its shape is checked just as far as the lookup goes (a list of records, each
 * with a cluster id and a profile); the record found is then checked against
 * schemas/candidates.schema.json before it is rendered, so a damaged file is one line on stderr
 * and exit 2, never a crash. Everything printed for humans comes from skills (ids, paths,
 * headings, snippets), so its control characters are shown escaped.
 */
import path from 'node:path';
import type { CommandIO } from './build-command.js';
import type { CandidateRecord as Candidate } from '../ir/types.js';
import { validateAgainst } from '../schema/validate.js';
import { escapeInline } from '../text/terminal.js';
import { cutAtCodePoints } from '../text/code-points.js';
import { DistReadError, MAX_INDEX_BYTES, readDistFile } from '../util/confined-read.js';

class CandidatesError extends Error {}

export function explainCommand(id: string, opts: { dist: string; json?: boolean }, io: CommandIO): number {
  const file = path.join(opts.dist, 'candidates.json');
  if (id.trim() === '') {
    io.stderr.write(`skillc explain: give the id of a cluster (c-…) or a contract, as the build report or candidates.json names it\n`);
    return 2;
  }
  let candidates: readonly Candidate[];
  let found: Candidate | undefined;
  try {
    candidates = readCandidates(opts.dist);
    found = candidates.find((c) => c.cluster.id === id || c.profile.contract === id);
    if (found) checkRecord(file, found);
  } catch (e) {
    if (!(e instanceof CandidatesError)) throw e;
    io.stderr.write(`skillc explain: ${escapeInline(e.message)}\n`);
    return 2;
  }
  if (!found) {
    const near = id.length > 200 ? [] : candidates.flatMap((c) => [c.cluster.id, c.profile.contract ?? '']).filter((x) => x && (x.startsWith(id) || x.includes(id))).slice(0, 5);
    // The id is echoed bounded, as serve echoes names: a 100,000-character argument is not a line of stderr.
    const shown = id.length > 200 ? `${id.slice(0, cutAtCodePoints(id, 200))}… (${id.length} characters)` : id;
    io.stderr.write(escapeInline(`skillc explain: no cluster or contract '${shown}' in ${file}${near.length ? `; did you mean ${near.join(', ')}?` : ''}`) + '\n');
    return 2;
  }
  if (opts.json) {
    io.stdout.write(JSON.stringify(found, null, 2) + '\n');
    return 0;
  }
  io.stdout.write(renderExplanation(found));
  return 0;
}

/** dist/candidates.json's records, checked as far as the lookup by id reads them. */
function readCandidates(dist: string): readonly Candidate[] {
  const file = path.join(dist, 'candidates.json');
  let text: string;
  try {
    text = readDistFile(dist, 'candidates.json', { maxBytes: MAX_INDEX_BYTES }).toString('utf8');
  } catch (e) {
    if (!(e instanceof DistReadError)) throw e;
    throw new CandidatesError(e.problem === 'missing' ? `${dist} has no candidates.json: build the library first (skillc build <library> -o ${dist})` : e.message);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new CandidatesError(`${file} is not valid JSON: ${(e as Error).message}`);
  }
  const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  const list = isRecord(doc) ? doc.candidates : undefined;
  if (!Array.isArray(list)) throw new CandidatesError(`${file} is not a candidates file of skillc build: it has no "candidates" list`);
  for (const [i, c] of list.entries()) {
    const contract = isRecord(c) && isRecord(c.profile) ? c.profile.contract : undefined;
    if (!isRecord(c) || !isRecord(c.cluster) || typeof c.cluster.id !== 'string' || !isRecord(c.profile) || !(contract === undefined || contract === null || typeof contract === 'string')) {
      throw new CandidatesError(`${file} is not a candidates file of skillc build: candidate ${i} has no cluster id, profile or contract id`);
    }
  }
  return list as Candidate[];
}

/** The found record against the schema, so that rendering reads only what is there. */
function checkRecord(file: string, found: Candidate): void {
  const check = validateAgainst('candidates', { schemaVersion: 1, policy: {}, candidates: [found] });
  if (!check.valid) {
    const problems = check.errors.map((e) => e.replace(/^\/candidates\/0(\/| )/, (_, next: string) => (next === ' ' ? '/ ' : '/'))).slice(0, 3);
    throw new CandidatesError(`${file}: candidate ${found.cluster.id} does not match schemas/candidates.schema.json: ${problems.join('; ')}`);
  }
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
  // Every line carries skill-derived text (ids, paths, headings, snippets): one line each, escaped.
  return L.map(escapeInline).join('\n') + '\n';
}
