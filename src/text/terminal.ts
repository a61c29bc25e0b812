/**
 * Text from skills (names, folder names, headings, snippets, whole bundles) is printed to terminals
 * and logs. Raw control characters there are an attack surface: ESC starts sequences that move the
 * cursor, recolour, retitle the window or hide the lines before them, BEL rings, a newline inside a
 * name fakes a further report line, and Unicode bidirectional overrides make text display in
 * another order than it reads ("Trojan Source"). Every human-readable output passes skill-derived
 * text through one of these two functions, which show such characters as visible escapes (`\x1b`,
 * `\n`, `\u202e`). JSON outputs need neither: JSON.stringify escapes C0 characters itself, and
 * their strings must round-trip exactly.
 */

/** C0 controls, DEL, C1 controls, and the bidirectional embedding, override and isolate characters. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/** The same without tab, line feed and carriage return (a block keeps its lines). */
const UNSAFE_IN_BLOCK = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function visible(ch: string): string {
  const code = ch.charCodeAt(0);
  if (ch === '\n') return '\\n';
  if (ch === '\r') return '\\r';
  if (ch === '\t') return '\\t';
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** For text that must stay on one line (a path, a name, a message): every control character escaped. */
export function escapeInline(text: string): string {
  return text.replace(UNSAFE, visible);
}

/**
 * For multi-line text (a bundle, a skill body): line breaks and tabs stay; a lone CR, which a
 * terminal would use to overwrite the line before it, becomes a line feed (CommonMark reads it as a
 * line break too); every other control character is escaped.
 */
export function escapeBlock(text: string): string {
  const lines = text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text;
  return lines.replace(UNSAFE_IN_BLOCK, visible);
}
