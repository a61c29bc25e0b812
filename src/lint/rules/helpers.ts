/** Small pieces several rules share: reporting at a frontmatter field, code points, line endings. */
import type { FieldEntry } from '../frontmatter-view.js';
import type { LintSubject, RuleContext } from '../types.js';

/** The metadata of a rule that takes no options. */
export const NO_OPTIONS = {
  optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
  defaultOptions: {},
} as const;

export function reportValue(ctx: RuleContext, entry: FieldEntry, message: string): void {
  const [offset, endOffset] = entry.kind === 'null' ? [entry.keyStart, entry.keyEnd] : [entry.valueStart, entry.valueEnd];
  ctx.report({ offset, endOffset, message });
}

export function reportKey(ctx: RuleContext, entry: FieldEntry, message: string): void {
  ctx.report({ offset: entry.keyStart, endOffset: entry.keyEnd, message });
}

/** Length in Unicode code points (what the reference validator's Python len() counts). */
export function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** The line ending SKILL.md uses (for inserted lines). */
export function eolOf(subject: LintSubject): string {
  return subject.text.includes('\r\n') ? '\r\n' : subject.text.includes('\r') ? '\r' : '\n';
}

/** Column (0-based) of an offset within its line. */
export function columnOf(subject: LintSubject, offset: number): number {
  return offset - subject.lines.lineStart(offset);
}

/** Shortens a value for a message. */
export function quote(s: string, max = 60): string {
  const one = s.replace(/\s+/g, ' ');
  return `'${one.length > max ? `${one.slice(0, max - 1)}…` : one}'`;
}

/** A YAML plain scalar that reads back as the same string: no leading indicator, no ": " or " #". */
export function plainSafe(s: string): boolean {
  return s !== '' && !/^[-?:,[\]{}#&*!|>'"%@`\s]/.test(s) && !/: |\s#|[\r\n]/.test(s) && !/[\s:]$/.test(s) && !/^(true|false|yes|no|on|off|null|~|[-+]?(\d[\d_]*)?\.?\d*([eE][-+]?\d+)?|0x[0-9a-f]+|0o[0-7]+|[-+]?\.(inf|nan))$/i.test(s);
}

/** `end` moved back over line breaks (not before `min`): YAML node ranges may include the final one. */
export function trimLineBreaks(text: string, min: number, end: number): number {
  let e = end;
  while (e > min && (text[e - 1] === '\n' || text[e - 1] === '\r')) e--;
  return e;
}
