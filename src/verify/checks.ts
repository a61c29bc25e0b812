/**
 * The four deterministic checks of the verifier (SPEC §2 pass 4). Each returns a score in [0, 1]
 * and the evidence behind it. None calls a model; all read only the contract draft and the
 * cluster's member units (and the scripts they link to).
 *
 * - coverage: recall of the contract's trigger and I/O name tokens in each source parent's units.
 * - binding: share of (parent, required input) pairs with evidence in that parent's units: a
 *   template slot filled there whose value occurs in the text, the input's name tokens, or a
 *   linked script that takes the input as an argument.
 * - replacement: share of source parents whose units can each be swapped for one invoke line:
 *   no unclosed fence, no numbered list running across the unit boundary, no "see below"-style
 *   cross-reference, at least two thirds of the unit's action lines reproduced by the templates
 *   (the invoke replaces the whole body; calibration's forced pairs sharing one command line were
 *   promoted without this), no code block only partly covered by the templates.
 * - risk: combined weight 1 − Π(1 − w) of the undeclared unsafe sinks that AST scans find in the
 *   members' fenced code and linked scripts.
 */
import type { Contract, Evidence, Parent, RiskHit, Unit } from '../ir/types.js';
import { tokenSet, contentTokens } from '../text/tokens.js';
import { proseOf, type MemberUnit } from '../extract/contract.js';
import { actionLines } from '../extract/action-lines.js';
import { authorTemplateOf } from '../extract/author-templates.js';
import { linkedScripts } from '../propose/frame.js';
import { groupBy } from '../util/group-by.js';

export interface CheckResult {
  readonly score: number;
  readonly evidence: Evidence[];
}

export interface RiskScanFn {
  (code: string, fenceLang: string | null, filePath: string | undefined): readonly { sink: string; category: string; weight: number; line: number; column: number; snippet: string }[];
}

/** Members grouped by source parent, in cluster order. */
export function byParent(members: readonly MemberUnit[]): Map<string, MemberUnit[]> {
  return groupBy(members, (x) => x.parent.path);
}

function ev(x: MemberUnit, detail: string, line = x.unit.line): Evidence {
  return { parent: x.parent.path, unit: x.unit.id, file: x.parent.file, line, detail };
}

export function contractTokens(c: Contract): Set<string> {
  const names = [...c.input_schema, ...c.output_schema].map((f) => f.name.replace(/_\d+$/, '').replace(/_/g, ' '));
  return new Set([...contentTokens(c.trigger), ...names.flatMap((n) => contentTokens(n))]);
}

export function coverage(c: Contract, members: readonly MemberUnit[]): CheckResult & { min: number } {
  const want = contractTokens(c);
  const evidence: Evidence[] = [];
  const recalls: number[] = [];
  for (const [, xs] of byParent(members)) {
    const have = tokenSet(xs.map((x) => x.unit.text).join('\n'));
    const found = [...want].filter((t) => have.has(t));
    const recall = want.size === 0 ? 0 : found.length / want.size;
    recalls.push(recall);
    const missing = [...want].filter((t) => !have.has(t));
    evidence.push(ev(xs[0]!, `coverage ${recall.toFixed(2)}: found ${found.join(', ') || 'none'}${missing.length ? `; missing ${missing.join(', ')}` : ''}`));
  }
  const mean = recalls.reduce((a, b) => a + b, 0) / Math.max(1, recalls.length);
  return { score: mean, min: Math.min(...recalls), evidence };
}

export function binding(c: Contract, members: readonly MemberUnit[]): CheckResult {
  const required = c.input_schema.filter((f) => f.required);
  const evidence: Evidence[] = [];
  if (required.length === 0) return { score: 1, evidence };
  const fillers = new Map<string, Map<string, string>>(); // unit → input → value
  for (const t of c.templates) for (const i of t.instances) for (const [k, v] of Object.entries(i.bindings)) {
    if (v === '') continue;
    let m = fillers.get(i.unit);
    if (!m) fillers.set(i.unit, (m = new Map()));
    if (!m.has(k)) m.set(k, v);
  }
  let pairs = 0;
  let bound = 0;
  for (const [, xs] of byParent(members)) {
    const text = xs.map((x) => x.unit.text).join('\n');
    const tokens = tokenSet(text);
    const scripts = [...new Set(xs.flatMap((x) => linkedScripts(x.parent, x.unit)))];
    for (const f of required) {
      pairs++;
      const filled = xs.map((x) => fillers.get(x.unit.id)?.get(f.name)).find((v) => v !== undefined && text.includes(v));
      const nameTokens = contentTokens(f.name.replace(/_\d+$/, '').replace(/_/g, ' '));
      const named = nameTokens.length > 0 && nameTokens.every((t) => tokens.has(t));
      const scriptArg = scripts.find((s) => s.text !== undefined && new RegExp(`--${f.name.replace(/_/g, '[-_]')}\\b`).test(s.text));
      if (filled !== undefined) {
        bound++;
        evidence.push(ev(xs[0]!, `${f.name} = \`${filled}\``));
      } else if (named) {
        bound++;
        evidence.push(ev(xs[0]!, `${f.name}: named in the text`));
      } else if (scriptArg) {
        bound++;
        evidence.push(ev(xs[0]!, `${f.name}: argument of ${scriptArg.path}`));
      } else {
        evidence.push(ev(xs[0]!, `${f.name}: no evidence (no filled slot, name or script argument)`));
      }
    }
  }
  return { score: bound / pairs, evidence };
}

const CROSS_REFERENCE = /\b(see (below|above)|as (shown |described |mentioned )?(above|below)|(described|shown|listed|explained) (above|below)|the (previous|next|following|preceding) (step|section)s?|in step \d+|from step \d+|(the )?aforementioned)\b/i;

export function replacement(c: Contract, members: readonly MemberUnit[]): CheckResult {
  if (c.scope === 'action') return actionReplacement(c, members);
  const evidence: Evidence[] = [];
  // The instance lines only (one per unit and template), not every line a template matches: one
  // invoke binds each slot once, so it reproduces each template once (bind's round trip agrees).
  const templated = new Set<string>();
  for (const t of c.templates) for (const i of t.instances) templated.add(`${i.unit}\u0000${i.line}`);
  let clean = 0;
  const groups = byParent(members);
  for (const [, xs] of groups) {
    const problems: { x: MemberUnit; why: string; line: number }[] = [];
    for (const x of xs) {
      const why = entanglement(x, templated);
      if (why) problems.push({ x, ...why });
    }
    if (problems.length === 0) {
      clean++;
      evidence.push(ev(xs[0]!, 'replaceable: self-contained, well-formed markdown'));
    } else {
      for (const p of problems) evidence.push(ev(p.x, `not replaceable: ${p.why}`, p.line));
    }
  }
  return { score: clean / Math.max(1, groups.size), evidence };
}

/**
 * For a contract of one action, the call is one line — an inline code span, a line of a code
 * block, a numbered step — which never entangles the section around it. A source parent is
 * replaceable when one of its units holds a concrete line of the action (a call) or the authors'
 * template of it (its definition); a parent with neither is not.
 */
function actionReplacement(c: Contract, members: readonly MemberUnit[]): CheckResult {
  const evidence: Evidence[] = [];
  const calls = new Map<string, number>();
  for (const t of c.templates) for (const i of t.instances) if (!calls.has(i.unit)) calls.set(i.unit, i.line);
  const groups = byParent(members);
  let clean = 0;
  for (const [, xs] of groups) {
    const call = xs.find((x) => calls.has(x.unit.id));
    const defined = call ? undefined : xs.find((x) => actionLines(x.unit).some((l) => authorTemplateOf(l) !== null));
    if (call) evidence.push(ev(call, `replaceable: the action is one line (line ${calls.get(call.unit.id)})`, calls.get(call.unit.id)));
    else if (defined) evidence.push(ev(defined, 'replaceable: the authors write the action as this template'));
    else {
      evidence.push(ev(xs[0]!, 'not replaceable: no line of the action in this parent'));
      continue;
    }
    clean++;
  }
  return { score: clean / Math.max(1, groups.size), evidence };
}

/** Why a unit cannot be swapped for one invoke line (given which of its action lines are templated), or null. */
export function entanglement(x: MemberUnit, templated: ReadonlySet<string>): { why: string; line: number } | null {
  const u = x.unit;
  const open = u.codeBlocks.find((b) => !b.closed);
  if (open) return { why: 'a code fence that never closes', line: open.line };
  const m = CROSS_REFERENCE.exec(proseOf(u));
  if (m) return { why: `cross-reference "${m[0]}" to text outside the unit`, line: u.line + (u.text.slice(0, u.text.indexOf(m[0])).split('\n').length - 1) };
  const steps = u.bullets.filter((b) => b.ordered && b.depth === 1);
  if (steps.length > 0 && steps[0]!.number !== null && steps[0]!.number > 1) return { why: `its numbered list starts at ${steps[0]!.number}, continuing a list before it`, line: steps[0]!.line };
  const next = nextUnit(x.parent, u);
  const nextFirst = next?.bullets.find((b) => b.depth === 1);
  if (steps.length > 0 && nextFirst?.ordered && nextFirst.number !== null && nextFirst.number > 1 && next!.text.trimStart().replace(/^#.*\n/, '').trimStart().startsWith(`${nextFirst.number}`)) {
    return { why: `the numbered list continues after it (step ${nextFirst.number} in "${next!.heading ?? ''}")`, line: nextFirst.line };
  }
  const all = actionLines(u);
  const kept = all.filter((l) => templated.has(`${u.id}\u0000${l.line}`)).length;
  if (all.length > 0 && kept * 3 < all.length * 2) return { why: `the contract reproduces only ${kept} of its ${all.length} action lines, so an invoke would drop the rest`, line: u.line };
  const lines = all.filter((l) => l.source === 'code');
  for (const b of u.codeBlocks) {
    const inBlock = lines.filter((l) => l.line > b.line && l.line < b.line + b.value.split('\n').length + 1);
    const covered = inBlock.filter((l) => templated.has(`${u.id}\u0000${l.line}`)).length;
    if (covered > 0 && covered < inBlock.length) return { why: `code block only partly templated (${covered} of ${inBlock.length} lines)`, line: b.line };
  }
  return null;
}

function nextUnit(p: Parent, u: Unit): Unit | undefined {
  return p.units[u.index + 1];
}


export function risk(c: Contract, members: readonly MemberUnit[], scan: RiskScanFn, riskMax: number): { score: number; hits: RiskHit[] } {
  const hits: RiskHit[] = [];
  const seenScripts = new Set<string>();
  for (const x of members) {
    for (const b of x.unit.codeBlocks) {
      for (const f of scan(b.value, b.lang, undefined)) hits.push({ ...f, file: x.parent.file, line: b.line + f.line, declared: isDeclared(c, f, riskMax) });
    }
    hits.push(...maliciousHits(x.parent, x.parent.file, x.unit.text, x.unit.line));
    for (const s of linkedScripts(x.parent, x.unit)) {
      if (seenScripts.has(s.path) || s.text === undefined) continue;
      seenScripts.add(s.path);
      for (const f of scan(s.text, null, s.path)) hits.push({ ...f, file: s.path, declared: isDeclared(c, f, riskMax) });
      hits.push(...maliciousHits(x.parent, s.path, s.text, 1));
    }
  }
  const undeclared = new Map<string, number>();
  for (const h of hits) if (!h.declared) undeclared.set(h.sink, Math.max(undeclared.get(h.sink) ?? 0, h.weight));
  const score = 1 - [...undeclared.values()].reduce((p, w) => p * (1 - w), 1);
  return { score, hits };
}

/**
 * Malicious install steps (issue 20) in a unit's text or a script, as risk hits of weight 1 that
 * nothing declares: `malicious.<technique>`. One of them puts risk at 1.0, so no contract drawn
 * from such a unit is ever promoted. They are the parse pass's findings (Parent.malicious) that lie
 * in `text`, which starts on `firstLine` of `file`: the skill is not scanned again.
 */
function maliciousHits(parent: Parent, file: string, text: string, firstLine: number): RiskHit[] {
  const lines = text.split('\n');
  return (parent.malicious ?? [])
    .filter((m) => m.file === file && m.line >= firstLine && m.line < firstLine + lines.length)
    .map((m) => ({
      sink: `malicious.${m.technique}`,
      category: 'malicious',
      weight: 1,
      file,
      line: m.line,
      column: m.column,
      snippet: lines[m.line - firstLine]!.slice(m.column - 1, m.column - 1 + 80),
      declared: false,
    }));
}

/**
 * A sink is declared when a side effect names its id, or, for a sink weighing less than the risk
 * gate, when a side effect of its category is declared. Sinks heavy enough to reject on their own
 * (curl | sh, shell=True) must be named explicitly; secrets and code execution have no category.
 */
export function isDeclared(c: Contract, f: { sink: string; category: string; weight: number }, riskMax: number): boolean {
  return c.side_effects.some((s) => s.sinks.includes(f.sink) || (f.weight < riskMax && s.kind === f.category && s.sinks.length === 0));
}
