/**
 * Conformance of `skillc lint --strict` with the Agent Skills reference validator (skills-ref):
 * for every skill of the corpora, skillc's verdict (any error from the specification rules) is
 * compared with the validator's (CHECKS.tsv column skills_ref; empty = valid). Also compares the
 * kinds of problem found where the validator got past the YAML, prints the agreement and lists
 * every disagreement with both sides' messages, and the wall time of the lint.
 *
 *   node build/bench/lint-conformance.js [corpora] [--jobs n] [--all-rules]
 *
 * --all-rules counts errors from every rule (body, fences, links too), not only the spec rules.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveTargets } from '../src/lint/targets.js';
import { lintItems, type LintSettings } from '../src/lint/run.js';
import { LINT_RULES } from '../src/lint/rules/registry.js';
import type { LintMessage } from '../src/lint/types.js';

const args = process.argv.slice(2);
const jobsAt = args.indexOf('--jobs');
const jobs = jobsAt >= 0 ? Number(args[jobsAt + 1]) : Math.min(8, os.availableParallelism());
const allRules = args.includes('--all-rules');
const root = path.resolve(args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--jobs') ?? '../shared/corpora');

type Kind = 'yaml' | 'frontmatter' | 'name-missing' | 'name-lowercase' | 'name-chars' | 'name-length' | 'name-hyphens' | 'dir-mismatch' | 'description' | 'compatibility' | 'allowed-tools' | 'unknown-fields' | 'other';

/** The kind of a reference validator message. */
function refKind(msg: string): Kind {
  if (msg.startsWith('Unexpected fields')) return 'unknown-fields';
  if (msg.startsWith('Invalid YAML') || msg.includes('must be a YAML mapping')) return 'yaml';
  if (msg.includes('must start with YAML frontmatter') || msg.includes('not properly closed')) return 'frontmatter';
  if (msg.includes("Field 'name'") || msg.includes('field in frontmatter: name')) return 'name-missing';
  if (msg.includes('must be lowercase')) return 'name-lowercase';
  if (msg.includes('invalid characters')) return 'name-chars';
  if (msg.includes('character limit') && msg.startsWith('Skill name')) return 'name-length';
  if (msg.includes('hyphen')) return 'name-hyphens';
  if (msg.startsWith('Directory name')) return 'dir-mismatch';
  if (msg.toLowerCase().includes('description')) return 'description';
  if (msg.toLowerCase().includes('compatibility')) return 'compatibility';
  if (msg.includes('allowed-tools')) return 'allowed-tools';
  return 'other';
}

/** The kind of one of our messages, in the validator's terms. */
function ourKind(m: LintMessage): Kind {
  switch (m.ruleId) {
    case 'frontmatter-yaml':
    case 'frontmatter-strict':
      return 'yaml';
    case 'frontmatter-present':
      return 'frontmatter';
    case 'name-format':
      if (m.message.includes('lowercase')) return 'name-lowercase';
      if (m.message.includes('may only hold')) return 'name-chars';
      if (m.message.includes('characters long')) return 'name-length';
      if (m.message.includes('hyphen')) return 'name-hyphens';
      return 'name-missing';
    case 'name-matches-folder':
      return 'dir-mismatch';
    case 'description-format':
      return 'description';
    case 'compatibility-format':
      return 'compatibility';
    case 'allowed-tools-format':
      return 'allowed-tools';
    case 'unknown-fields':
      return 'unknown-fields';
    default:
      return 'other';
  }
}

interface Row {
  readonly corpus: string;
  readonly skill: string;
  readonly ref: readonly string[];
}

function readChecks(): Row[] {
  const rows: Row[] = [];
  for (const corpus of fs.readdirSync(root).sort()) {
    const file = path.join(root, corpus, 'CHECKS.tsv');
    if (!fs.existsSync(file)) continue;
    const [header, ...lines] = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
    const cols = header!.split('\t');
    const skillCol = cols.indexOf('skill');
    const refCol = cols.indexOf('skills_ref');
    for (const line of lines) {
      const cells = line.split('\t');
      const ref = (cells[refCol] ?? '').trim();
      rows.push({ corpus, skill: cells[skillCol]!, ref: ref === '' ? [] : ref.split(' | ').map((s) => s.trim()) });
    }
  }
  return rows;
}

const rows = readChecks();
const specRules = Object.fromEntries(LINT_RULES.filter((r) => r.meta.category !== 'spec').map((r) => [r.meta.id, 'off' as const]));
const settings: LintSettings = {
  config: { rules: allRules ? {} : specRules },
  configSource: null,
  strict: true,
  cwd: root,
  fix: false,
  reportUnusedDisableDirectives: false,
};

const started = performance.now();
const corpora = [...new Set(rows.map((r) => r.corpus))];
const { targets, errors } = resolveTargets(corpora, root);
if (errors.length) throw new Error(errors.join('\n'));
const outcomes = await lintItems(targets.map((t) => ({ dir: t.dir, skill: t.skill, settings })), { jobs });
const seconds = (performance.now() - started) / 1000;

const ours = new Map<string, LintMessage[]>();
targets.forEach((t, i) => {
  const key = path.relative(root, t.dir).split(path.sep).join('/');
  ours.set(key, outcomes[i]!.files.flatMap((f) => f.messages).filter((m) => m.severity === 'error'));
});

let agree = 0;
const disagreements: string[] = [];
const kinds = new Map<Kind, { both: number; refOnly: number; oursOnly: number }>();
let compared = 0;
let fieldsAgree = 0;
const fieldMismatches: string[] = [];
for (const row of rows) {
  const key = `${row.corpus}/${row.skill}`;
  const mine = ours.get(key);
  if (!mine) {
    disagreements.push(`${key}: not linted (no such skill folder)`);
    continue;
  }
  const refInvalid = row.ref.length > 0;
  const ourInvalid = mine.length > 0;
  if (refInvalid === ourInvalid) agree++;
  else {
    disagreements.push(
      `${key}: skills-ref ${refInvalid ? 'INVALID' : 'valid'}, skillc ${ourInvalid ? 'INVALID' : 'valid'}\n` +
        `    skills-ref: ${row.ref.join(' | ').slice(0, 300) || '-'}\n` +
        `    skillc:     ${mine.map((m) => `${m.line}:${m.column} ${m.ruleId}: ${m.message}`).join(' | ').slice(0, 400) || '-'}`,
    );
  }
  // Kinds: only where the validator read the YAML (it stops at the first YAML error).
  const refKinds = new Set(row.ref.map(refKind));
  if (refKinds.has('yaml') || refKinds.has('frontmatter')) {
    const k = refKinds.has('yaml') ? 'yaml' : 'frontmatter';
    const e = kinds.get(k) ?? { both: 0, refOnly: 0, oursOnly: 0 };
    if (mine.some((m) => ourKind(m) === k)) e.both++;
    else e.refOnly++;
    kinds.set(k, e);
    continue;
  }
  compared++;
  const ourKinds = new Set(mine.map(ourKind));
  // Unknown fields: also the same field names.
  const refFields = row.ref.find((m) => m.startsWith('Unexpected fields'))?.replace(/^Unexpected fields in frontmatter: ([^.]*)\..*$/, '$1');
  const ourFields = mine.filter((m) => m.ruleId === 'unknown-fields').map((m) => /'([^']+)'/.exec(m.message)?.[1] ?? '').sort().join(', ');
  if (refFields !== undefined || ourFields !== '') {
    if (refFields === ourFields) fieldsAgree++;
    else fieldMismatches.push(`${key}: skills-ref [${refFields ?? ''}] skillc [${ourFields}]`);
  }
  for (const k of new Set([...refKinds, ...ourKinds])) {
    const e = kinds.get(k) ?? { both: 0, refOnly: 0, oursOnly: 0 };
    if (refKinds.has(k) && ourKinds.has(k)) e.both++;
    else if (refKinds.has(k)) e.refOnly++;
    else e.oursOnly++;
    kinds.set(k, e);
  }
}

const pct = (n: number, d: number) => `${((100 * n) / Math.max(1, d)).toFixed(2)}%`;
console.log(`skills: ${rows.length} (CHECKS.tsv rows), linted: ${targets.length}, time: ${seconds.toFixed(1)} s with ${jobs} job(s)`);
console.log(`verdict agreement (strict${allRules ? ', all rules' : ', specification rules'}): ${agree}/${rows.length} = ${pct(agree, rows.length)}`);
console.log(`skills-ref invalid: ${rows.filter((r) => r.ref.length).length}, skillc invalid: ${[...ours.values()].filter((m) => m.length).length}`);
console.log('\nproblem kinds (skills where both / only skills-ref / only skillc report it; YAML-valid skills only except yaml/frontmatter):');
for (const [k, e] of [...kinds.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) console.log(`  ${k.padEnd(16)} ${String(e.both).padStart(5)} ${String(e.refOnly).padStart(5)} ${String(e.oursOnly).padStart(5)}`);
console.log(`unknown-field names identical: ${fieldsAgree}/${fieldsAgree + fieldMismatches.length}${fieldMismatches.length ? `\n  ${fieldMismatches.join('\n  ')}` : ''}`);
console.log(`\ndisagreements: ${disagreements.length}`);
for (const d of disagreements) console.log(`- ${d}`);
