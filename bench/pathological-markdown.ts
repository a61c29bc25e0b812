/**
 * Markdown bodies on which a CommonMark parser's work can grow faster than the file (the shapes of
 * cmark's pathological tests and of issue 25), as generators of a given size. Used by
 * bench/parse-budget (timings with and without the budget) and by the parse tests.
 */
export const PATHOLOGICAL: Readonly<Record<string, (n: number) => string>> = {
  /** Separate top-level lists, each closed by a paragraph: every closing re-copies the events. */
  separateLists: (n) => Array.from({ length: n }, (_, i) => `- item ${i}\n\nparagraph ${i}\n\n`).join(''),
  /** The same with block quotes. */
  separateQuotes: (n) => Array.from({ length: n }, (_, i) => `> quote ${i}\n\nparagraph ${i}\n\n`).join(''),
  /** A list nested n levels deep, two columns per level. */
  nestedList: (n) => Array.from({ length: n }, (_, i) => `${'  '.repeat(i)}- level ${i}\n`).join(''),
  /** n block quote markers on one line. */
  nestedQuotes: (n) => `${'>'.repeat(n)} deep\n`,
  /** One paragraph of unmatched emphasis delimiters. */
  unmatchedEmphasis: (n) => `${'*a_ '.repeat(n)}\n`,
  /** One paragraph of nested strong emphasis (deep inline tree). */
  nestedStrong: (n) => `${'*a **a '.repeat(n)}b${' a** a*'.repeat(n)}\n`,
  /** One paragraph of code-span openers of growing length, none closed. */
  backtickRuns: (n) => `${Array.from({ length: n }, (_, i) => '`'.repeat((i % 64) + 1) + 'x').join(' ')}\n`,
  /** Ordinary sections (headings, prose, a code block) repeated: large but not pathological. */
  ordinarySections: (n) => Array.from({ length: n }, (_, i) => `## Section ${i}\n\nSome text with \`code\` and a [link](https://example.com/${i}).\n\n\`\`\`bash\necho ${i}\n\`\`\`\n\n`).join(''),
};

/** A SKILL.md around a body. */
export function skillWith(body: string, name = 'pathological'): string {
  return `---\nname: ${name}\ndescription: A body generated to test the parse budget.\n---\n# Title\n\n${body}`;
}
