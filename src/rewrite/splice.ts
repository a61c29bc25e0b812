/**
 * Edits by offsets. A rewritten SKILL.md is the original text with a few spans replaced: nothing
 * outside an edit is touched, so frontmatter and unchanged units stay byte for byte (SPEC §2
 * pass 6: never re-serialise the document).
 */
import type { Parent, Unit } from '../ir/types.js';

export interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** Applies non-overlapping edits (any order); throws on overlap, which would be a skillc bug. */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    if (e.start < at || e.end < e.start || e.end > text.length) throw new Error(`internal: overlapping or out-of-range edit [${e.start}, ${e.end})`);
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}

/** The parent's decoded SKILL.md text: the frontmatter followed by the units, which partition the rest. */
export function parentText(p: Parent): string {
  return p.frontmatter.raw + p.units.map((u) => u.text).join('');
}

/** The line ending a document mostly uses (inserted lines follow it). */
export function eolOf(text: string): '\n' | '\r\n' {
  const crlf = text.split('\r\n').length - 1;
  const lf = text.split('\n').length - 1 - crlf;
  return crlf > lf ? '\r\n' : '\n';
}

/**
 * Length of the unit's heading within its text (through the end of the heading's last line,
 * before the line ending): 0 for the preamble, null when the heading is not a plain ATX or setext
 * heading at the start of a line (one nested in a list or block quote cannot be rewritten safely).
 */
export function headingLength(unit: Unit): number | null {
  if (unit.heading === null) return 0;
  const lines = unit.text.split('\n');
  if (/^ {0,3}#{1,6}(\s|$)/.test(lines[0]!)) return lines[0]!.replace(/\r$/, '').length;
  let len = 0;
  for (let i = 0; i < lines.length && i < 8; i++) {
    const l = lines[i]!.replace(/\r$/, '');
    if (i > 0 && /^ {0,3}(=+|-+)[ \t]*$/.test(l)) return len + l.length;
    if (i === 0 && /^ {0,3}([>*+-]|\d+[.)])\s/.test(l)) return null;
    len += lines[i]!.length + 1;
  }
  return null;
}
