/**
 * Whitespace runs as one space, trimmed: how skillc compares and shows a line of text (headings,
 * link texts, action lines, template matches, snippets). One function for all of them, with a
 * fast path: a text whose only whitespace is single spaces is kept as it is (most lines are), so
 * the replacement runs only where it changes something.
 */
export function collapse(s: string): string {
  return (NEEDS_COLLAPSE.test(s) ? s.replace(/\s+/g, ' ') : s).trim();
}

/** Whitespace other than a space, or two spaces in a row: what replace(/\s+/g, ' ') would change. */
const NEEDS_COLLAPSE = /[^\S ]| {2}/;
