/**
 * The model's side of Rewrite Cleanup (SPEC §2 pass 6, §3): the request for one rewritten parent
 * and the translation of its reply into edits of the original text. The model sees the rewritten
 * skill with line numbers; each edit it returns names a line, the exact text to replace on it and
 * the replacement. An edit becomes an offset edit of the original only if:
 * - the text is found on that line (or within two lines of it, for an off-by-one line number);
 * - it lies in text the deterministic rewrite left untouched (not an invoke line, the marker, a
 *   deterministic cleanup), inside a unit that is not a call-site, below its heading, and not in
 *   the frontmatter;
 * - the replacement is one invoke, well-formed, of a contract this parent invokes, binding all its
 *   required inputs and only its inputs, and its templates instantiated with those bindings give
 *   back the replaced text token for token (a rewording is refused, as in the deterministic
 *   rewrite);
 * - no two edits overlap.
 * One failed edit rejects the whole reply: the deterministic rewrite stands. The rewrite pass then
 * runs its post-check (every invoke kept, no added words) and the reachability check below.
 */
import type { Cleanup, Parent } from '../ir/types.js';
import type { CleanupReply } from '../llm/prompts/rewrite-cleanup.js';
import type { InvokedContract } from './cleanup.js';
import { parseInvokes } from './invoke.js';
import { headingLength, type Edit } from './splice.js';
import { codeSpan } from '../text/code-span.js';
import { instantiate } from './templates.js';
import { contractSummary, fencedBlock } from '../llm/request-text.js';
import { collapse } from '../text/collapse.js';

/** Above this, a parent is not sent (the deterministic rewrite stands). */
export const MAX_CLEANUP_TEXT_CHARS = 40_000;
const NEAR_LINES = 2;

export function cleanupRequest(parent: Parent, rewritten: string, invoked: readonly InvokedContract[]): string {
  const numbered = rewritten.split('\n').map((l, i) => `${String(i + 1).padStart(4)}| ${l.replace(/\r$/, '')}`).join('\n');
  const contracts = new Map(invoked.map((i) => [i.contract.id, i.contract]));
  const out = [`Skill ${parent.path} (${parent.file}), rewritten. Each line starts with its number and "| ".`, fencedBlock(numbered, 'text'), '## Contracts this skill invokes'];
  for (const c of contracts.values()) {
    const calls = invoked.filter((i) => i.contract.id === c.id).map((i) => i.callSite.invoke);
    out.push([
      `### ${c.id}: ${c.trigger}`,
      ...contractSummary(c),
      'Calls in this skill:\n' + calls.map((s) => `- ${s}`).join('\n'),
    ].join('\n'));
  }
  return out.join('\n\n');
}

export type ModelCleanupResult = { readonly ok: true; readonly edits: Edit[]; readonly cleanups: Cleanup[] } | { readonly ok: false; readonly reason: string };

/**
 * @param original the parent's original text; @param applied the deterministic edits (skeleton and
 * cleanup) that produced @param rewritten from it.
 */
export function modelCleanupEdits(parent: Parent, original: string, applied: readonly Edit[], rewritten: string, invoked: readonly InvokedContract[], reply: CleanupReply): ModelCleanupResult {
  const segments = unchangedSegments(applied, original.length);
  const lineStarts = [0];
  for (let i = 0; i < rewritten.length; i++) if (rewritten[i] === '\n') lineStarts.push(i + 1);
  const lineText = (n: number) => rewritten.slice(lineStarts[n - 1]!, n < lineStarts.length ? lineStarts[n]! - 1 : rewritten.length).replace(/\r$/, '');
  const replaced = new Set(invoked.map((i) => i.callSite.unit));
  const contracts = new Map(invoked.map((i) => [i.contract.id, i.contract]));
  const bodyStart = parent.frontmatter.raw.length;

  const edits: Edit[] = [];
  const cleanups: Cleanup[] = [];
  for (const [k, e] of reply.edits.entries()) {
    const which = `edit ${k + 1} (line ${e.line})`;
    if (e.find === '') return { ok: false, reason: `${which}: nothing to find` };
    // The stated line first, then the nearest lines around it.
    let at = -1;
    for (const n of nearby(e.line, lineStarts.length)) {
      const col = lineText(n).indexOf(e.find);
      if (col >= 0) {
        at = lineStarts[n - 1]! + col;
        break;
      }
    }
    if (at < 0) return { ok: false, reason: `${which}: "${e.find.slice(0, 60)}" is not on that line` };
    const seg = segments.find((s) => s.rStart <= at && at + e.find.length <= s.rEnd);
    if (!seg) return { ok: false, reason: `${which}: it changes text skillc wrote (an invoke line, the marker or a cleanup)` };
    const start = seg.oStart + (at - seg.rStart);
    const end = start + e.find.length;
    if (start < bodyStart) return { ok: false, reason: `${which}: it is in the frontmatter` };
    const unit = parent.units.find((u) => u.start <= start && end <= u.end);
    if (!unit) return { ok: false, reason: `${which}: it spans two sections` };
    if (replaced.has(unit.id)) return { ok: false, reason: `${which}: it is in a replaced section` };
    if (start < unit.start + (headingLength(unit) ?? unit.text.length)) return { ok: false, reason: `${which}: it changes a heading` };
    if (edits.some((x) => start < x.end && x.start < end)) return { ok: false, reason: `${which}: it overlaps another edit` };

    const calls = parseInvokes(e.replace);
    if (calls.length === 0) return { ok: false, reason: `${which}: the replacement holds no well-formed invoke(...)` };
    if (calls.length !== (e.replace.match(/invoke\(/g) ?? []).length) return { ok: false, reason: `${which}: the replacement holds a malformed invoke(...)` };
    for (const call of calls) {
      const c = contracts.get(call.contract);
      if (!c) return { ok: false, reason: `${which}: it invokes ${call.contract}, which this skill does not call` };
      const names = new Set(c.input_schema.map((f) => f.name));
      const extra = Object.keys(call.bindings).find((n) => !names.has(n));
      if (extra !== undefined) return { ok: false, reason: `${which}: ${extra} is not an input of ${c.id}` };
      const missing = c.input_schema.find((f) => f.required && !(call.bindings[f.name] ?? '').trim());
      if (missing) return { ok: false, reason: `${which}: required input ${missing.name} of ${c.id} is unbound` };
    }
    // A bare invoke in prose is written as a code span, like the deterministic rewrite does.
    const inFence = unit.codeBlocks.some((b) => b.fenced && b.start <= start && end <= b.end);
    const only = calls[0]!;
    const bare = calls.length === 1 && e.replace.slice(0, only.start).trim() === '' && e.replace.slice(only.end).trim() === '';
    // Faithful, as the deterministic rewrite: the invoke stands for exactly the text it replaces,
    // so an edit that rewords a line (another verb, other values) is refused.
    if (!bare) return { ok: false, reason: `${which}: the replacement is not one invoke alone` };
    const c = contracts.get(only.contract)!;
    const replacedLines = e.find.replace(/^`+|`+$/g, '').split(/\r?\n/).map(collapse).filter((l) => l !== '');
    const produced = c.templates.map((t) => instantiate(t, only.bindings));
    if (replacedLines.length !== produced.length || replacedLines.some((l, i) => l !== produced[i])) {
      return { ok: false, reason: `${which}: the invoke gives "${produced.join(' / ').slice(0, 80)}", not the text it replaces ("${replacedLines.join(' / ').slice(0, 80)}")` };
    }
    const text = !inFence && bare && !e.replace.includes('`') ? e.replace.slice(0, only.start) + codeSpan(e.replace.slice(only.start, only.end)) + e.replace.slice(only.end) : e.replace;
    edits.push({ start, end, text });
    // `after` is the invoke itself (the schema says so), whatever wraps it in the text.
    cleanups.push({ parent: parent.path, unit: unit.id, line: unit.line + countNewlines(original.slice(unit.start, start)), contract: only.contract, before: e.find, after: e.replace.slice(only.start, only.end), by: 'model' });
  }
  return { ok: true, edits, cleanups };
}

/**
 * SPEC §3: the cleaned text keeps every original unit reachable. Every section heading is still
 * there, in order (a changed section's original text goes to SKILL.replaced.md).
 */
export function unreachableUnit(parent: Parent, text: string): string | null {
  let from = 0;
  for (const u of parent.units) {
    const h = headingLength(u);
    if (!h) continue;
    const heading = u.text.slice(0, h);
    const at = text.indexOf(heading, from);
    if (at < 0) return `the heading "${heading.trim().slice(0, 60)}" (line ${u.line}) is gone`;
    from = at + heading.length;
  }
  return null;
}

interface Segment {
  readonly rStart: number;
  readonly rEnd: number;
  readonly oStart: number;
}

/** The stretches of the rewritten text copied unchanged from the original, with their original offsets. */
function unchangedSegments(applied: readonly Edit[], originalLength: number): Segment[] {
  const sorted = [...applied].sort((a, b) => a.start - b.start || a.end - b.end);
  const out: Segment[] = [];
  let o = 0;
  let r = 0;
  for (const e of sorted) {
    if (e.start > o) out.push({ rStart: r, rEnd: r + (e.start - o), oStart: o });
    r += e.start - o + e.text.length;
    o = e.end;
  }
  if (originalLength > o) out.push({ rStart: r, rEnd: r + (originalLength - o), oStart: o });
  return out;
}

function* nearby(line: number, lines: number): Generator<number> {
  for (let d = 0; d <= NEAR_LINES; d++) {
    for (const n of d === 0 ? [line] : [line - d, line + d]) if (n >= 1 && n <= lines) yield n;
  }
}

function countNewlines(s: string): number {
  return (s.match(/\n/g) ?? []).length;
}
