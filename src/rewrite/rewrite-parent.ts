/**
 * The skeleton of one parent (SPEC §2 pass 6): each call-site's code block (rewrite/plan.ts) is
 * replaced by its invoke line; a one-line marker after the frontmatter says what the notation
 * means and where the replaced text went. Everything else is the original text, spliced by offsets.
 */
import type { Parent } from '../ir/types.js';
import { codeSpan } from '../text/code-span.js';
import type { ReplacedSpan } from './plan.js';
import { eolOf, parentText, type Edit } from './splice.js';

export const REPLACED_FILE = 'SKILL.replaced.md';

export function markerLine(count: number, replacedFile: string): string {
  return `<!-- skillc: invoke(…) is notation for a contract or passage, not a command; ${count} original section${count === 1 ? '' : 's'} in ${replacedFile} -->`;
}

/** SKILL.replaced.md, unless the skill already has a file of that name. */
export function replacedFileName(parent: Parent): string {
  const taken = new Set([...parent.scripts, ...parent.references, ...parent.assets].map((f) => f.relPath.toLowerCase()));
  let name = REPLACED_FILE;
  for (let k = 2; taken.has(name.toLowerCase()); k++) name = `SKILL.replaced-${k}.md`;
  return name;
}

export interface SkeletonEdits {
  readonly original: string;
  readonly eol: '\n' | '\r\n';
  readonly edits: Edit[];
}

export function skeletonEdits(parent: Parent, planned: readonly { readonly invoke: string; readonly span: ReplacedSpan }[], replacedFile: string): SkeletonEdits {
  const original = parentText(parent);
  const eol = eolOf(original);
  const bodyStart = parent.frontmatter.raw.length;
  const edits: Edit[] = [];
  // The marker goes in front of the body; a block edit at the same offset comes after it.
  edits.push({ start: bodyStart, end: bodyStart, text: markerLine(planned.length, replacedFile) + eol });
  // Only the code block the invoke reproduces is replaced; the prose around it stays as written.
  for (const { invoke, span } of planned) edits.push({ start: span.start, end: span.end, text: codeSpan(invoke) });
  return { original, eol, edits };
}
