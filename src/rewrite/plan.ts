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
import type { CallSite, Contract, DroppedCallSite, Parent, Passage, PassageMember, Unit } from '../ir/types.js';
import { formatInvoke } from './invoke.js';
import { codeSpan } from '../text/code-span.js';
import { neverRewrite } from './never-rewrite.js';
import { instantiate } from './templates.js';
import { contractText } from './contract-text.js';
import { parentText } from './splice.js';
import { markerLine, replacedFileName } from './rewrite-parent.js';
import { groupBy } from '../util/group-by.js';
import { compareCodeUnits } from '../util/stable-json.js';
import { collapse } from '../text/collapse.js';

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

/** A shared passage a skeleton may reference instead of one of its sections' bodies. */
export interface PlannedPassage {
  readonly passage: Passage;
  readonly member: PassageMember;
  /** The reference written in place of the body: `invoke(<passage id>, {…})`. */
  readonly invoke: string;
  readonly span: ReplacedSpan;
  readonly saves: number;
}

export interface PassagePlan {
  readonly referenced: readonly PlannedPassage[];
  /** Why each member that is not referenced is left as written. */
  readonly unreferenced: readonly { readonly member: PassageMember; readonly passage: string; readonly reason: string }[];
}

/** What a passage costs the library: its heading and text, stated once. */
export function passageText(p: Passage): string {
  return `### ${p.id}\n\n${p.text}`;
}

/**
 * Call-sites and passage references together: both replace a span of a skill by one invoke line,
 * both are kept only while they pay. A section that is a passage's member is referenced whole,
 * so a call-site inside it gives way (it could only replace a part of what the reference does).
 */
export function planRewrites(parents: readonly Parent[], contracts: ReadonlyMap<string, Contract>, callSites: readonly CallSite[], count: CountTokens, passages: readonly Passage[] = [], excluded: ReadonlyMap<string, string> = new Map()): RewritePlan & PassagePlan {
  const byPath = new Map(parents.map((p) => [p.path, p]));
  const texts = new Map<string, string>();
  const textOf = (parent: Parent) => {
    let text = texts.get(parent.path);
    if (text === undefined) texts.set(parent.path, (text = parentText(parent)));
    return text;
  };
  const dropped: DroppedCallSite[] = [];
  const drop = (cs: CallSite, stage: DroppedCallSite['stage'], reason: string) =>
    dropped.push({ unit: cs.unit, parent: cs.parent, file: cs.file, line: cs.line, contract: cs.contract, detection: cs.detection, stage, reason });
  const unreferenced: PassagePlan['unreferenced'][number][] = [];
  const reject = (item: EconomyItem, reason: string) => {
    if (item.planned) drop(item.planned.callSite, 'pay', reason);
    else unreferenced.push({ member: item.reference!.member, passage: item.reference!.passage.id, reason });
  };
  const markerCost = (path: string, n: number) => count(markerLine(n, replacedFileName(byPath.get(path)!))) + 1;
  const economy = new Map<string, { cost: number; saves: number }>();

  // Phase 1, shared passages: a reference replaces a section's whole body.
  const references: EconomyItem[] = [];
  for (const p of passages) {
    for (const member of p.members) {
      const parent = byPath.get(member.parent)!;
      const invoke = formatInvoke(p.id, member.bindings, p.slots);
      const span = { start: member.start, end: member.end, line: member.line };
      const saves = count(textOf(parent).slice(member.start, member.end)) - count(codeSpan(invoke));
      const item: EconomyItem = { parent: member.parent, group: `passage:${p.id}`, cost: 0, saves, reference: { passage: p, member, invoke, span, saves } };
      const why = excluded.get(member.parent);
      if (why !== undefined) reject(item, why);
      else references.push(item);
    }
  }
  const passageCost = new Map(passages.map((p) => [`passage:${p.id}`, count(passageText(p))]));
  const keptReferences = economize(references, (g) => passageCost.get(g)!, markerCost, new Set(), reject, economy);

  // Phase 2, call-sites: a block in a section already referenced whole gives way; a skill that
  // already carries the marker line (for its passages) does not pay for it again.
  const referencedUnits = new Map(keptReferences.map((i) => [i.reference!.member.unit, i.reference!.passage.id]));
  const calls: EconomyItem[] = [];
  for (const cs of callSites) {
    const shared = referencedUnits.get(cs.unit);
    if (shared !== undefined) {
      drop(cs, 'faithful', `its section is referenced whole as the shared passage ${shared}`);
      continue;
    }
    const why = excluded.get(cs.parent);
    if (why !== undefined) {
      drop(cs, 'rewrite', why);
      continue;
    }
    const parent = byPath.get(cs.parent)!;
    const unit = parent.units.find((u) => u.id === cs.unit)!;
    const text = textOf(parent);
    const r = replacedBlock(parent, unit, contracts.get(cs.contract)!, cs, text);
    if (!r.ok) {
      drop(cs, r.stage, r.reason);
      continue;
    }
    const saves = count(text.slice(r.span.start, r.span.end)) - count(codeSpan(cs.invoke));
    calls.push({ parent: cs.parent, group: cs.contract, cost: 0, saves, planned: { callSite: cs, span: r.span, saves } });
  }
  const marked = new Set(keptReferences.map((i) => i.parent));
  const keptCalls = economize(calls, (g) => count(contractText(contracts.get(g)!)), markerCost, marked, reject, economy);
  return {
    planned: keptCalls.map((i) => i.planned!),
    referenced: keptReferences.map((i) => i.reference!),
    dropped,
    unreferenced,
    economy,
  };
}

/** A replacement, call-site or passage reference, as the economy sees it. */
interface EconomyItem {
  readonly parent: string;
  /** The contract id, or `passage:<id>`. */
  readonly group: string;
  readonly cost: number;
  readonly saves: number;
  readonly planned?: PlannedCallSite;
  readonly reference?: PlannedPassage;
}

/**
 * The items kept: those that save nothing go first; then skills whose savings do not cover their
 * marker line (unless `marked` already carries one) and groups whose savings, net of each item's
 * share of its skill's marker, do not cover their text, until both hold.
 */
function economize(items: readonly EconomyItem[], groupCost: (group: string) => number, markerCost: (path: string, n: number) => number, marked: ReadonlySet<string>, reject: (item: EconomyItem, reason: string) => void, economy: Map<string, { cost: number; saves: number }>): EconomyItem[] {
  let kept: EconomyItem[] = [];
  for (const item of items) {
    if (item.saves > 0) kept.push(item);
    else reject(item, `the invoke line is not shorter than what it replaces (${item.saves} tokens saved)`);
  }
  const costOf = new Map<string, number>();
  for (let changed = true; changed; ) {
    changed = false;
    const byParent = sortedGroups(kept, (i) => i.parent);
    const markerShare = new Map<string, number>();
    for (const [path, list] of byParent) {
      const cost = marked.has(path) ? 0 : markerCost(path, list.length);
      markerShare.set(path, cost / list.length);
      const saves = list.reduce((a, i) => a + i.saves, 0);
      if (saves > cost) continue;
      for (const i of list) reject(i, `the skill's ${list.length} replacement${list.length === 1 ? '' : 's'} save ${saves} tokens, and the line that marks a rewritten skill costs ${cost}`);
      kept = kept.filter((i) => i.parent !== path);
      changed = true;
    }
    if (changed) continue;
    for (const [group, list] of sortedGroups(kept, (i) => i.group)) {
      let cost = costOf.get(group);
      if (cost === undefined) costOf.set(group, (cost = groupCost(group)));
      // Savings net of each item's share of its skill's marker line.
      const saves = Math.floor(list.reduce((a, i) => a + i.saves - markerShare.get(i.parent)!, 0));
      economy.set(group, { cost, saves });
      if (saves > cost) continue;
      const what = group.startsWith('passage:') ? `passage ${group.slice(8)}` : group;
      for (const i of list) reject(i, `the ${list.length} use${list.length === 1 ? '' : 's'} of ${what} save ${saves} tokens in all (after the marker lines), and its text costs ${cost}`);
      kept = kept.filter((i) => i.group !== group);
      changed = true;
    }
  }
  return kept;
}

/** Groups in key order (code units), so the economy is decided in the same order on every machine. */
function sortedGroups<T>(xs: readonly T[], key: (x: T) => string): [string, T[]][] {
  return [...groupBy(xs, key)].sort(([a], [b]) => compareCodeUnits(a, b));
}
