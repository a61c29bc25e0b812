/** A markdown code span around literal text: fenced with more backticks than any run inside, padded when it starts or ends with one. */
export function codeSpan(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** A fence for a code block holding `text`: longer than any backtick run at a line start inside it. */
export function fenceFor(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/^ {0,3}(`{3,})/gm)].map((m) => m[1]!.length));
  return '`'.repeat(longest + 1);
}
