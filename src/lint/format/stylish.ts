/**
 * stylish: one line per problem, `file:line:col  severity  message  rule-id`, which terminals,
 * editors and pre-commit logs turn into links, then a one-line summary. Paths and messages carry
 * text from skills, so control characters in them are shown escaped (text/terminal.ts).
 */
import pc from 'picocolors';
import type { LintFileResult } from '../types.js';
import { escapeInline } from '../../text/terminal.js';

export function formatStylish(results: readonly LintFileResult[], opts: { color?: boolean } = {}): string {
  const c = opts.color ? pc : pc.createColors(false);
  const lines: string[] = [];
  let errors = 0;
  let warnings = 0;
  let fixable = 0;
  for (const r of results) {
    errors += r.errorCount;
    warnings += r.warningCount;
    fixable += r.fixableErrorCount + r.fixableWarningCount;
    for (const m of r.messages) {
      const sev = m.severity === 'error' ? c.red('error') : c.yellow('warning');
      lines.push(`${c.bold(`${escapeInline(r.filePath)}:${m.line}:${m.column}`)}  ${sev}  ${escapeInline(m.message)}  ${c.dim(escapeInline(m.ruleId))}`);
      if (m.suggestion) lines.push(`    ${c.dim('suggestion:')} ${escapeInline(m.suggestion)}`);
    }
  }
  const total = errors + warnings;
  if (total === 0) return '';
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  const summary = `${total === 1 ? '1 problem' : `${total} problems`} (${plural(errors, 'error')}, ${plural(warnings, 'warning')})`;
  lines.push('');
  lines.push((errors ? c.red : c.yellow)(c.bold(`✖ ${summary}`)));
  if (fixable) lines.push(c.dim(`  ${plural(fixable, 'problem')} can be fixed with --fix`));
  return lines.join('\n') + '\n';
}
