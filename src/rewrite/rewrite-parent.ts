/**
 * The skeleton of one parent (SPEC §2 pass 6): each call-site unit keeps its heading and has its
 * body replaced by the invoke line; a one-line marker after the frontmatter says what the notation
 * means and where the replaced text went. Everything else is the original text, spliced by offsets.
 */
import type { CallSite, Parent } from '../ir/types.js';
import { codeSpan } from '../text/code-span.js';
import { eolOf, headingLength, parentText, type Edit } from './splice.js';

export const REPLACED_FILE = 'SKILL.replaced.md';

export function markerLine(count: number, replacedFile: string): string {
  return `<!-- skillc: invoke(…) is notation for a contract, not a command; ${count} original section${count === 1 ? '' : 's'} in ${replacedFile} -->`;
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

export function skeletonEdits(parent: Parent, callSites: readonly CallSite[], replacedFile: string): SkeletonEdits {
  const original = parentText(parent);
  const eol = eolOf(original);
  const units = new Map(parent.units.map((u) => [u.id, u]));
  const bodyStart = parent.frontmatter.raw.length;
  const edits: Edit[] = [];
  // The marker goes in front of the body; a unit edit at the same offset (a preamble call-site) comes after it.
  edits.push({ start: bodyStart, end: bodyStart, text: markerLine(callSites.length, replacedFile) + eol });
  for (const cs of callSites) {
    const u = units.get(cs.unit)!;
    const h = headingLength(u);
    if (h === null) throw new Error(`internal: call-site ${cs.unit} has no rewritable heading`);
    const body = u.text.slice(h);
    const trailing = /\s*$/.exec(body)![0];
    const lead = h > 0 ? eol + eol : /^\s*/.exec(body)![0];
    edits.push({ start: u.start + h, end: u.end, text: lead + codeSpan(cs.invoke) + trailing });
  }
  return { original, eol, edits };
}
