/**
 * Deterministic Rewrite Cleanup (SPEC §2 pass 6; SaP §3.2 and appendix B). After the call-site
 * units are replaced, other passages of the same parent may still spell out an invoked procedure
 * in words that contradict the contract — an Example line `Action: put laptop 1 in/on desk 1`
 * where the contract's template is `move {object} to {target}` and this parent binds
 * object="laptop 1", target="desk 1". Such a line is rewritten as the parent's invoke.
 *
 * A residual line conflicts with a template when all of these hold:
 * - it names every value this parent binds to the template's slots (as whole words);
 * - it is not itself an instance of the template (that would agree, not contradict);
 * - its leading verb differs from the template's, and belongs to the contract's verb class (the
 *   cluster's frame verb) or to the template verb's class — so `inspect laptop 1 on desk 1`, a
 *   different action on the same objects, is left alone;
 * - it is about as long as the instantiated template (at most two more words);
 * - it is an action, not an intro ending in a colon, a question, or a line with its own command
 *   in a code span (a different command is not a different wording).
 * Only the action text is replaced: list markers, prompts and a `Label:` prefix stay.
 */
import type { CallSite, Cleanup, Contract, Parent } from '../ir/types.js';
import type { VerbLexicon } from '../propose/lexicon.js';
import { formatInvoke } from './invoke.js';
import { codeSpan } from '../text/code-span.js';
import { escapeRegExp, instantiate, matchTemplate, templatePieces } from './templates.js';
import { headingLength, type Edit } from './splice.js';
import { collapse } from '../text/collapse.js';

const PREFIX = /^(\s*(?:>\s*)*(?:(?:[-*+]|\d+[.)])\s+)?(?:\$\s+)?(?:[A-Z][A-Za-z]{0,15}(?: [A-Za-z]{1,15})?:\s+)?)/;
const MAX_EXTRA_WORDS = 2;

export interface InvokedContract {
  readonly callSite: CallSite;
  readonly contract: Contract;
  /** The verb class of the contract's cluster. */
  readonly verb: string;
}

export interface CleanupResult {
  readonly edits: Edit[];
  readonly cleanups: Cleanup[];
}

export function cleanupEdits(parent: Parent, invoked: readonly InvokedContract[], lexicon: VerbLexicon): CleanupResult {
  const replaced = new Set(invoked.map((i) => i.callSite.unit));
  const edits: Edit[] = [];
  const cleanups: Cleanup[] = [];
  for (const unit of parent.units) {
    if (replaced.has(unit.id)) continue;
    const skip = headingLength(unit) ?? 0;
    // Where fences are comes from the parser (a fence indented inside a list item included).
    const fences = unit.codeBlocks.filter((b) => b.fenced);
    let offset = 0;
    const lines = unit.text.split('\n');
    lines.forEach((raw, i) => {
      const lineStart = offset;
      offset += raw.length + 1;
      const line = raw.replace(/\r$/, '');
      const at = unit.start + lineStart;
      const fence = fences.find((b) => b.start <= at + raw.length && at < b.end);
      // The opening and closing fence lines themselves.
      if (fence && (fence.start >= at || (fence.closed && fence.end <= at + raw.length))) return;
      if (lineStart < skip || line.includes('invoke(')) return;
      const prefix = PREFIX.exec(line)![0];
      let rest = line.slice(prefix.length).trimEnd();
      let restStart = prefix.length;
      // A whole-line code span: rewrite inside it.
      const span = fence === undefined ? /^(`+)([^`].*?)\1$/.exec(rest) : null;
      if (span) {
        restStart += span[1]!.length;
        rest = span[2]!;
      }
      // An intro ("List datasets:"), a question, or a line carrying its own command in a code
      // span is not a wording of the contract's action.
      if (rest.length < 3 || /[:?]$/.test(rest) || (span === null && rest.includes('`'))) return;
      for (const inv of invoked) {
        const hit = conflict(rest, inv, lexicon);
        if (!hit) continue;
        const call = formatInvoke(inv.contract.id, inv.callSite.bindings, inv.contract.input_schema.map((f) => f.name));
        const after = fence !== undefined || span ? call : codeSpan(call);
        edits.push({ start: unit.start + lineStart + restStart, end: unit.start + lineStart + restStart + rest.length, text: after });
        cleanups.push({ parent: parent.path, unit: unit.id, line: unit.line + i, contract: inv.contract.id, before: rest, after: call, by: 'deterministic' });
        return;
      }
    });
  }
  return { edits, cleanups };
}

function conflict(rest: string, inv: InvokedContract, lexicon: VerbLexicon): boolean {
  const b = inv.callSite.bindings;
  const restWords = collapse(rest).split(' ');
  const lineVerb = restWords[0] ?? '';
  if (!/^[A-Za-z]+$/.test(lineVerb)) return false;
  const lineClass = lexicon.classOf(lineVerb);
  if (lineClass === undefined) return false;
  for (const t of inv.contract.templates) {
    if (t.slots.length === 0 || !t.slots.every((s) => (b[s] ?? '').length >= 2)) continue;
    if (!t.slots.every((s) => containsWords(rest, b[s]!))) continue;
    const inst = instantiate(t, b);
    if (inst === collapse(rest) || matchTemplate(t, rest) !== null) continue;
    const first = templatePieces(t)[0];
    const tplVerb = first?.kind === 'const' ? (first.text.trim().split(/\s+/)[0] ?? '') : '';
    if (!/^[A-Za-z]+$/.test(tplVerb) || tplVerb.toLowerCase() === lineVerb.toLowerCase()) continue;
    if (lineClass !== inv.verb && lineClass !== lexicon.classOf(tplVerb)) continue;
    if (restWords.length > inst.split(' ').length + MAX_EXTRA_WORDS) continue;
    return true;
  }
  return false;
}

function containsWords(text: string, value: string): boolean {
  const v = escapeRegExp(value).replace(/\s+/g, '\\s+');
  return new RegExp(`(^|[^\\w])${v}($|[^\\w])`).test(text);
}
