/**
 * Runs the configured rules over one skill: collects reports, turns offsets into positions,
 * applies severities and inline disable comments, and with --fix applies the safe edits (sorted,
 * overlaps dropped, re-linted up to MAX_FIX_PASSES times, as ESLint does) to the original text.
 * Every fix is checked before it is offered (fix-check.ts: the frontmatter's data changes only as
 * the rule declared, no new YAML problem, comments and body kept); one that fails loses its fix
 * and stays reported. Each pass's combined edit is checked again. Never writes: the fixed text is
 * returned for the command to write.
 */
import type { SourceSkill } from '../ir/types.js';
import type { ResolvedConfig } from './config.js';
import { markdownDirectives, scriptDirectives, Suppressions, type Directive } from './directives.js';
import type { LintServices } from './services.js';
import { displayFile, makeSubject } from './subject.js';
import { fixRefusal, frontmatterState, type FrontmatterState } from './fix-check.js';
import type { DataChange, LintFileResult, LintMessage, LintSubject, RuleReport, TextEdit } from './types.js';
import { LINT_RULES } from './rules/registry.js';

import { ENGINE_RULES } from './engine-rules.js';

export { ENGINE_RULES };

const MAX_FIX_PASSES = 10;

export interface LintSkillOptions {
  readonly config: ResolvedConfig;
  readonly services: LintServices;
  readonly cwd: string;
  readonly fix?: boolean;
  readonly reportUnusedDisableDirectives?: boolean;
  /** Files of this skill the loader could not read or scan (skill-relative paths). */
  readonly loadProblems?: readonly { readonly relPath: string; readonly ruleId: string; readonly severity: 'error' | 'warning'; readonly message: string }[];
}

export interface SkillLintResult {
  /** SKILL.md first, then other files with messages, by path. */
  readonly files: readonly LintFileResult[];
  /** The fixed SKILL.md bytes, when --fix changed it. */
  readonly fixed?: Uint8Array;
  /** A rule threw (reported as a lint/rule-crashed error): the command exits 2. */
  readonly crashed: boolean;
  /** [filePath, text] of each file in `files` (SARIF fingerprints hash the reported line). */
  readonly sources: readonly (readonly [string, string])[];
}

/** A checked fix: its edits and the data changes it declared. */
interface CheckedFix {
  readonly edits: readonly TextEdit[];
  readonly changes: readonly DataChange[];
}

interface Collected {
  readonly skillMd: { message: LintMessage; fix?: CheckedFix }[];
  readonly others: Map<string, LintMessage[]>;
  crashed: boolean;
}

export async function lintSkill(skill: SourceSkill, dir: string, options: LintSkillOptions): Promise<SkillLintResult> {
  let current = skill;
  let subject = makeSubject(current, dir, options.cwd);
  let collected = await runRules(subject, options);
  let changed = false;
  if (options.fix && !subject.lossy) {
    for (let pass = 0; pass < MAX_FIX_PASSES; pass++) {
      const fixes = collected.skillMd.flatMap((m) => (m.fix ? [m.fix] : []));
      if (fixes.length === 0) break;
      const next = combinedFix(subject.text, fixes);
      if (next === null || next === subject.text) break;
      changed = true;
      current = { ...current, content: encode(next, subject.hasByteOrderMark) };
      subject = makeSubject(current, dir, options.cwd);
      collected = await runRules(subject, options);
    }
  }
  const skillFile = displayFile(subject.displayDir, subject.fileName);
  // What the loader could not read in this skill: engine messages at line 1 of the file.
  for (const p of options.loadProblems ?? []) {
    const message: LintMessage = { ruleId: p.ruleId, severity: p.severity, message: p.message, line: 1, column: 1 };
    if (p.relPath === subject.fileName) collected.skillMd.push({ message });
    else collected.others.set(p.relPath, [...(collected.others.get(p.relPath) ?? []), message].sort(compareMessages));
  }
  collected.skillMd.sort((a, b) => compareMessages(a.message, b.message));
  const files: LintFileResult[] = [fileResult(skillFile, collected.skillMd.map((m) => m.message), changed ? subject.text : undefined)];
  const sources: [string, string][] = [[skillFile, subject.text]];
  for (const [rel, messages] of [...collected.others.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const file = displayFile(subject.displayDir, rel);
    files.push(fileResult(file, messages));
    sources.push([file, textOf(subject, rel)]);
  }
  return { files, crashed: collected.crashed, sources, ...(changed ? { fixed: current.content } : {}) };
}

/** The text of a skill's file other than SKILL.md ('' when it has none: a binary file, a folder). */
function textOf(subject: LintSubject, rel: string): string {
  const { scripts, references, assets } = subject.parent;
  return [...scripts, ...references, ...assets].find((f) => f.relPath === rel)?.text ?? '';
}

async function runRules(subject: LintSubject, options: LintSkillOptions): Promise<Collected> {
  const collected: Collected = { skillMd: [], others: new Map(), crashed: false };
  // Read once per subject, and only when some rule offers a fix.
  let before: FrontmatterState | undefined;
  const checked = (r: { fix?: readonly TextEdit[]; fixChanges?: readonly DataChange[] }): CheckedFix | undefined => {
    if (!r.fix || r.fix.length === 0) return undefined;
    before ??= frontmatterState(subject.text);
    const fix = { edits: r.fix, changes: r.fixChanges ?? [] };
    return fixRefusal(before, fix.edits, applyFixes(subject.text, [fix.edits]), fix.changes) === null ? fix : undefined;
  };
  const known = new Set(LINT_RULES.map((r) => r.meta.id));
  const notInline = new Set(LINT_RULES.filter((r) => r.meta.inlineDisable === false).map((r) => r.meta.id));
  const codeRanges = subject.parent.units
    .flatMap((u) => u.codeBlocks)
    .filter((b) => b.fenced)
    .map((b) => [b.start, b.end] as const)
    .sort((a, b) => a[0] - b[0]);
  const mdDirectives = markdownDirectives(subject.text, subject.frontmatter.raw.length, codeRanges);
  const mdSuppressions = new Suppressions(mdDirectives);
  const scriptSuppressions = new Map<string, Suppressions>();
  const suppressionsOf = (rel: string) => {
    let s = scriptSuppressions.get(rel);
    if (!s) {
      const text = subject.parent.scripts.find((f) => f.relPath === rel)?.text ?? '';
      s = new Suppressions(scriptDirectives(text));
      scriptSuppressions.set(rel, s);
    }
    return s;
  };
  // Every script's directives are read, not only those of scripts some rule reported in: a
  // comment that names a rule it cannot turn off, or no rule at all, is reported either way.
  for (const f of subject.parent.scripts) if (f.text?.includes('skillc-')) suppressionsOf(f.relPath);

  for (const { rule, level, options: ruleOptions } of options.config.rules) {
    if (level === 'off') continue;
    if (rule.meta.needsDist && (await options.services.dist()) === null) continue;
    const severity = level === 'error' ? 'error' : 'warning';
    // A rule that catches malicious skills is not turned off by the skill it checks.
    const inline = rule.meta.inlineDisable !== false;
    const reports: RuleReport[] = [];
    try {
      await rule.check({ subject, strict: options.config.strict, services: options.services, report: (r) => reports.push(r) }, ruleOptions);
    } catch (err) {
      collected.crashed = true;
      collected.skillMd.push({ message: { ruleId: ENGINE_RULES.ruleCrashed, severity: 'error', message: `rule ${rule.meta.id} failed on this skill: ${err instanceof Error ? err.message : String(err)}`, line: 1, column: 1 } });
      continue;
    }
    for (const r of reports) {
      if ('file' in r) {
        if (inline && suppressionsOf(r.file).suppresses(rule.meta.id, r.line)) continue;
        const list = collected.others.get(r.file) ?? [];
        list.push({ ruleId: rule.meta.id, severity, message: r.message, line: r.line, column: r.column, ...(r.suggestion ? { suggestion: r.suggestion } : {}) });
        collected.others.set(r.file, list);
        continue;
      }
      const start = subject.lines.position(r.offset);
      if (inline && mdSuppressions.suppresses(rule.meta.id, start.line)) continue;
      const end = r.endOffset !== undefined && r.endOffset > r.offset ? subject.lines.position(r.endOffset) : undefined;
      const fix = checked(r);
      const message: LintMessage = {
        ruleId: rule.meta.id,
        severity,
        message: r.message,
        line: start.line,
        column: start.column,
        ...(end ? { endLine: end.line, endColumn: end.column } : {}),
        ...(fix ? { fix: fix.edits } : {}),
        ...(r.suggestion ? { suggestion: r.suggestion } : {}),
      };
      collected.skillMd.push({ message, ...(fix ? { fix } : {}) });
    }
  }

  const directiveProblems = (directives: readonly Directive[], unused: readonly Directive[]) => {
    const out: LintMessage[] = [];
    for (const d of directives) {
      for (const id of d.rules ?? []) {
        if (!known.has(id)) out.push({ ruleId: ENGINE_RULES.unknownRule, severity: 'warning', message: `skillc-${d.kind} names an unknown rule '${id}'`, line: d.line, column: d.column });
        else if (d.kind !== 'enable' && notInline.has(id)) out.push({ ruleId: ENGINE_RULES.disableRefused, severity: 'warning', message: `skillc-${d.kind} cannot turn off '${id}': a skill cannot vouch for itself against a rule that catches malicious skills (turn it off in the lint config)`, line: d.line, column: d.column });
      }
    }
    if (options.reportUnusedDisableDirectives) {
      // A directive naming only rules it cannot turn off is reported as refused, not again as unused.
      for (const d of unused.filter((x) => x.rules === null || x.rules.some((id) => !notInline.has(id)))) {
        out.push({ ruleId: ENGINE_RULES.unusedDisable, severity: 'warning', message: `unused skillc-${d.kind} directive (no ${d.rules ? `${d.rules.join(', ')} ` : ''}problem reported here)`, line: d.line, column: d.column });
      }
    }
    return out;
  };
  for (const m of directiveProblems(mdDirectives, mdSuppressions.unused())) collected.skillMd.push({ message: m });
  for (const [rel, s] of scriptSuppressions) {
    const extra = directiveProblems(s.directives, s.unused());
    if (extra.length) collected.others.set(rel, [...(collected.others.get(rel) ?? []), ...extra]);
  }
  collected.skillMd.sort((a, b) => compareMessages(a.message, b.message));
  for (const list of collected.others.values()) list.sort(compareMessages);
  return collected;
}

export function compareMessages(a: LintMessage, b: LintMessage): number {
  return a.line - b.line || a.column - b.column || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0) || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0);
}

/**
 * One pass's edit: the checked fixes that do not overlap, applied together. Each was checked
 * alone; together they are checked again with all their declared changes, and if that fails (two
 * fixes that are each right but not side by side) only the first is applied. Null: nothing passes.
 */
function combinedFix(text: string, fixes: readonly CheckedFix[]): string | null {
  const { text: all, taken } = spliceFixes(text, fixes.map((f) => f.edits));
  if (taken.length <= 1) return all;
  const before = frontmatterState(text);
  const chosen = taken.map((i) => fixes[i]!);
  if (fixRefusal(before, chosen.flatMap((f) => f.edits), all, chosen.flatMap((f) => f.changes)) === null) return all;
  const one = chosen[0]!;
  const alone = applyFixes(text, [one.edits]);
  return fixRefusal(before, one.edits, alone, one.changes) === null ? alone : null;
}

/** Applies fixes in order of position; a fix overlapping an earlier one waits for the next pass. */
export function applyFixes(text: string, fixes: readonly (readonly TextEdit[])[]): string {
  return spliceFixes(text, fixes).text;
}

/** applyFixes, also saying which fixes (indexes into `fixes`) it applied. */
function spliceFixes(text: string, fixes: readonly (readonly TextEdit[])[]): { text: string; taken: number[] } {
  const order = fixes.map((f, i) => [f, i] as const).filter(([f]) => f.length > 0).sort(([a], [b]) => first(a) - first(b) || last(a) - last(b));
  const edits: TextEdit[] = [];
  const taken: number[] = [];
  let reach = -1;
  for (const [fix, index] of order) {
    const sorted = [...fix].sort((a, b) => a.start - b.start);
    if (sorted[0]!.start < reach || sorted.some((e, i) => i > 0 && e.start < sorted[i - 1]!.end)) continue;
    edits.push(...sorted);
    taken.push(index);
    reach = Math.max(reach, ...sorted.map((e) => e.end));
  }
  let out = '';
  let pos = 0;
  for (const e of edits) {
    out += text.slice(pos, e.start) + e.text;
    pos = e.end;
  }
  return { text: out + text.slice(pos), taken };
}

function first(f: readonly TextEdit[]): number {
  return Math.min(...f.map((e) => e.start));
}
function last(f: readonly TextEdit[]): number {
  return Math.max(...f.map((e) => e.end));
}

function encode(text: string, bom: boolean): Uint8Array {
  return new TextEncoder().encode(bom ? `\ufeff${text}` : text);
}

function fileResult(filePath: string, messages: readonly LintMessage[], output?: string): LintFileResult {
  let errorCount = 0;
  let warningCount = 0;
  let fixableErrorCount = 0;
  let fixableWarningCount = 0;
  for (const m of messages) {
    if (m.severity === 'error') {
      errorCount++;
      if (m.fix) fixableErrorCount++;
    } else {
      warningCount++;
      if (m.fix) fixableWarningCount++;
    }
  }
  return { filePath, messages, errorCount, warningCount, fixableErrorCount, fixableWarningCount, ...(output !== undefined ? { output } : {}) };
}
