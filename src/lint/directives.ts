/**
 * Inline disable comments, as in ESLint and markdownlint:
 *
 *   <!-- skillc-disable [rule, …] -->            off from here (all rules when none are named)
 *   <!-- skillc-enable [rule, …] -->             on again
 *   <!-- skillc-disable-next-line [rule, …] -->  off for the next line
 *   <!-- skillc-disable-line [rule, …] -->       off for this line
 *
 * In the frontmatter and in scripts the same words go in a `#` (or `//`) comment, since an HTML
 * comment would be YAML or code. Directives inside fenced code blocks of SKILL.md are examples,
 * not directives, and are ignored. The engine asks `suppresses(rule, line)` for each message and
 * can list the directives that never suppressed anything.
 */

import { lineRecords } from '../text/block-lines.js';
import { splitLines } from '../text/line-index.js';

export type DirectiveKind = 'disable' | 'enable' | 'disable-next-line' | 'disable-line';

export interface Directive {
  readonly kind: DirectiveKind;
  /** null = every rule. */
  readonly rules: readonly string[] | null;
  /** 1-based line and column of the comment. */
  readonly line: number;
  readonly column: number;
}

const HTML = /<!--\s*skillc-(disable-next-line|disable-line|disable|enable)\b([^>]*?)\s*-->/g;
// No `$`: `.` stops before a CRLF line's `\r`, and a `$` after it would then never match.
const HASH = /(?:#|\/\/)\s*skillc-(disable-next-line|disable-line|disable|enable)\b(.*)/;

function ruleList(raw: string): string[] | null {
  const ids = raw
    .replace(/--.*$/, '') // "-- reason" after the list, as ESLint allows
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return ids.length ? ids : null;
}

/**
 * Directives of SKILL.md: HTML comments in the body, `#` comments in the frontmatter.
 * @param codeRanges [start, end) offsets of fenced code blocks (directives there are ignored)
 */
export function markdownDirectives(text: string, frontmatterEnd: number, codeRanges: readonly (readonly [number, number])[]): Directive[] {
  const out: Directive[] = [];
  let lineNo = 0;
  let range = 0;
  // Lines as LineIndex counts them (\r\n, \n or a lone \r), so directive lines match message lines.
  for (const { start, end } of lineRecords(text, 0)) {
    lineNo++;
    const line = text.slice(start, end);
    while (range < codeRanges.length && codeRanges[range]![1] <= start) range++;
    const inCode = range < codeRanges.length && codeRanges[range]![0] <= start && start < codeRanges[range]![1];
    if (!inCode && line.includes('skillc-')) {
      if (start < frontmatterEnd) {
        const m = HASH.exec(line);
        if (m) out.push({ kind: m[1] as DirectiveKind, rules: ruleList(m[2] ?? ''), line: lineNo, column: m.index + 1 });
      } else {
        HTML.lastIndex = 0;
        for (let m = HTML.exec(line); m; m = HTML.exec(line)) {
          out.push({ kind: m[1] as DirectiveKind, rules: ruleList(m[2] ?? ''), line: lineNo, column: m.index + 1 });
        }
      }
    }
  }
  return out;
}

/** Directives of a script: `#` or `//` comments. */
export function scriptDirectives(text: string): Directive[] {
  const out: Directive[] = [];
  splitLines(text).forEach((line, i) => {
    if (!line.includes('skillc-')) return;
    const m = HASH.exec(line);
    if (m) out.push({ kind: m[1] as DirectiveKind, rules: ruleList(m[2] ?? ''), line: i + 1, column: m.index + 1 });
  });
  return out;
}

export class Suppressions {
  private readonly used = new Set<Directive>();

  constructor(readonly directives: readonly Directive[]) {}

  /** Whether a message of `rule` on `line` is switched off; marks the directive that did it. */
  suppresses(rule: string, line: number): boolean {
    const names = (d: Directive) => d.rules === null || d.rules.includes(rule);
    for (const d of this.directives) {
      if (!names(d)) continue;
      if ((d.kind === 'disable-line' && d.line === line) || (d.kind === 'disable-next-line' && d.line + 1 === line)) {
        this.used.add(d);
        return true;
      }
    }
    // Ranges: the last disable/enable at or before the line that names the rule decides.
    let off: Directive | null = null;
    for (const d of this.directives) {
      if (d.line > line) break;
      if (!names(d)) continue;
      if (d.kind === 'disable') off = d;
      else if (d.kind === 'enable') off = null;
    }
    if (off) this.used.add(off);
    return off !== null;
  }

  /** Disable directives that suppressed nothing (reported with --report-unused-disable-directives). */
  unused(): Directive[] {
    return this.directives.filter((d) => d.kind !== 'enable' && !this.used.has(d));
  }
}
