/**
 * Which call-sites are rewritten, and what each replaces (SPEC §2 pass 6, issue 18).
 *
 * Faithful: a call-site replaces exactly one closed fenced code block of its unit, and only when
 * the block's lines are, token for token, the contract's templates instantiated with the
 * call-site's bindings, in order, with nothing else in the block (a comment, a prompt, a line the
 * templates do not make). Prose, lists, tables, inline code and other blocks stay as written, so
 * the skeleton keeps every sentence and the replaced lines are exactly what the invoke stands for.
 * A block in a passage that is never rewritten (rewrite/never-rewrite.ts) stays too.
 *
 * It must pay (o200k tokens, what the library stores): a call-site saves the tokens of its block
 * minus those of its invoke line; a rewritten skill costs the marker line that says what invoke
 * means; a contract costs its readable text, stated once. Only call-sites that save anything are
 * kept; a skill whose kept call-sites save no more than its marker costs is not rewritten; each
 * call-site bears an equal share of its skill's marker, and a contract whose call-sites' savings
 * net of those shares do not exceed its text is not used. Both are applied until nothing changes
 * (dropping a contract can leave a skill that no longer pays), so the library as a whole (skeletons
 * plus each contract once) is smaller than the skills it replaces by at least what is kept.
 * Everything dropped keeps its stage (`faithful`, `never-rewrite`, `pay`) and reason.
 */
import type { CallSite, Contract, DroppedCallSite, Parent, Unit } from '../ir/types.js';
import { codeSpan } from '../text/code-span.js';
import { neverRewrite } from './never-rewrite.js';
import { collapse, instantiate } from './templates.js';
import { contractText } from './contract-text.js';
import { parentText } from './splice.js';
import { markerLine, replacedFileName } from './rewrite-parent.js';
import { groupBy } from '../util/group-by.js';
import { compareCodeUnits } from '../util/stable-json.js';

/** The span of the original text a call-site's invoke replaces: one fenced code block. */
export interface ReplacedSpan {
  readonly start: number;
  readonly end: number;
  /** 1-based line of the block's opening fence. */
  readonly line: number;
}

export interface PlannedCallSite {
  readonly callSite: CallSite;
  readonly span: ReplacedSpan;
  /** Tokens the rewrite saves in the skeleton: the block's minus the invoke line's. */
  readonly saves: number;
}

export interface RewritePlan {
  readonly planned: readonly PlannedCallSite[];
  readonly dropped: readonly DroppedCallSite[];
  /** Per contract id: the tokens its readable text costs, and what its kept call-sites save. */
  readonly economy: ReadonlyMap<string, { readonly cost: number; readonly saves: number }>;
}

export type CountTokens = (text: string) => number;

/** The block a call-site replaces, or why it replaces none. */
export function replacedBlock(parent: Parent, unit: Unit, contract: Contract, callSite: CallSite, text: string = parentText(parent)): { ok: true; span: ReplacedSpan } | { ok: false; stage: 'faithful' | 'never-rewrite'; reason: string } {
  const expected = contract.templates.map((t) => instantiate(t, callSite.bindings));
  const candidates = unit.codeBlocks.filter((b) => b.fenced && b.closed);
  const actionLines = new Set(callSite.actions.map((a) => a.line));
  const holding = candidates.filter((b) => {
    const first = b.line + 1;
    const last = b.line + b.value.split('\n').length;
    return [...actionLines].some((l) => l >= first && l <= last);
  });
  if (holding.length === 0) return { ok: false, stage: 'faithful', reason: "none of its actions is in a closed fenced code block: prose, lists and inline code are never replaced" };
  for (const block of holding) {
    const lines = block.value.split('\n').map(collapse).filter((l) => l !== '');
    if (lines.length !== expected.length || lines.some((l, i) => l !== expected[i])) continue;
    const never = neverRewrite(text, unit, block);
    if (never) return { ok: false, stage: 'never-rewrite', reason: never.why };
    return { ok: true, span: { start: block.start, end: block.end, line: block.line } };
  }
  const block = holding[0]!;
  const lines = block.value.split('\n').map(collapse).filter((l) => l !== '');
  const differs = lines.findIndex((l, i) => l !== expected[i]);
  const why =
    lines.length !== expected.length && differs < 0
      ? `the code block at line ${block.line} has ${lines.length} line${lines.length === 1 ? '' : 's'}, the invoke stands for ${expected.length}`
      : `line ${differs + 1} of the code block at line ${block.line} is "${(lines[differs] ?? '').slice(0, 80)}", the invoke would give "${(expected[differs] ?? '(nothing)').slice(0, 80)}"`;
  return { ok: false, stage: 'faithful', reason: `the invoke does not reproduce the block it would replace token for token: ${why}` };
}

export function planRewrites(parents: readonly Parent[], contracts: ReadonlyMap<string, Contract>, callSites: readonly CallSite[], count: CountTokens): RewritePlan {
  const byPath = new Map(parents.map((p) => [p.path, p]));
  const texts = new Map<string, string>();
  const dropped: DroppedCallSite[] = [];
  const drop = (cs: CallSite, stage: DroppedCallSite['stage'], reason: string) =>
    dropped.push({ unit: cs.unit, parent: cs.parent, file: cs.file, line: cs.line, contract: cs.contract, detection: cs.detection, stage, reason });

  const faithful: PlannedCallSite[] = [];
  for (const cs of callSites) {
    const parent = byPath.get(cs.parent)!;
    const unit = parent.units.find((u) => u.id === cs.unit)!;
    let text = texts.get(parent.path);
    if (text === undefined) texts.set(parent.path, (text = parentText(parent)));
    const r = replacedBlock(parent, unit, contracts.get(cs.contract)!, cs, text);
    if (!r.ok) {
      drop(cs, r.stage, r.reason);
      continue;
    }
    const saves = count(text.slice(r.span.start, r.span.end)) - count(codeSpan(cs.invoke));
    faithful.push({ callSite: cs, span: r.span, saves });
  }

  // The economy: call-sites that save nothing go first; then skills whose savings do not cover
  // their marker and contracts whose savings do not cover their text, until both hold.
  let kept: PlannedCallSite[] = [];
  for (const p of faithful) {
    if (p.saves > 0) kept.push(p);
    else drop(p.callSite, 'pay', `the invoke line is not shorter than the block it replaces (${p.saves} tokens saved)`);
  }
  const markerCost = new Map<string, number>();
  const costOf = new Map<string, number>();
  const economy = new Map<string, { cost: number; saves: number }>();
  for (let changed = true; changed; ) {
    changed = false;
    const byParent = sortedGroups(kept, (p) => p.callSite.parent);
    for (const [path, list] of byParent) {
      let cost = markerCost.get(path);
      if (cost === undefined) markerCost.set(path, (cost = count(markerLine(list.length, replacedFileName(byPath.get(path)!))) + 1));
      const saves = list.reduce((a, p) => a + p.saves, 0);
      if (saves > cost) continue;
      for (const p of list) drop(p.callSite, 'pay', `the skill's ${list.length} call-site${list.length === 1 ? '' : 's'} save ${saves} tokens, and the line that marks a rewritten skill costs ${cost}`);
      kept = kept.filter((p) => p.callSite.parent !== path);
      changed = true;
    }
    const perParent = new Map(sortedGroups(kept, (p) => p.callSite.parent).map(([path, list]) => [path, markerCost.get(path)! / list.length]));
    const byContract = sortedGroups(kept, (p) => p.callSite.contract);
    for (const [id, list] of byContract) {
      let cost = costOf.get(id);
      if (cost === undefined) costOf.set(id, (cost = count(contractText(contracts.get(id)!))));
      // Savings net of each call-site's share of its skill's marker line.
      const saves = Math.floor(list.reduce((a, p) => a + p.saves - perParent.get(p.callSite.parent)!, 0));
      economy.set(id, { cost, saves });
      if (saves > cost) continue;
      for (const p of list) drop(p.callSite, 'pay', `the ${list.length} call-site${list.length === 1 ? '' : 's'} of ${id} save ${saves} tokens in all (after the marker lines), and its text costs ${cost}`);
      kept = kept.filter((p) => p.callSite.contract !== id);
      changed = true;
    }
  }
  const planned = kept;
  return { planned, dropped, economy };
}


/** Groups in key order (code units), so the economy is decided in the same order on every machine. */
function sortedGroups<T>(xs: readonly T[], key: (x: T) => string): [string, T[]][] {
  return [...groupBy(xs, key)].sort(([a], [b]) => compareCodeUnits(a, b));
}
