/**
 * Deterministic call-site binding (SPEC §2 pass 5) for one (unit, contract) pair: align each of
 * the unit's concrete action lines against the contract's templates, take the slot values as the
 * bindings, then apply the post-checks in order:
 *   detect     — some action line matches a template, and the unit can be swapped for one invoke
 *                line (the verifier's replacement test, with this unit's own matched lines);
 *   binding    — every required input is bound to a non-empty value that occurs in the unit text;
 *   round-trip — instantiating each matched template with the bindings gives back its line exactly
 *                (a unit that does the same step twice with different values fails here: one
 *                invoke cannot carry both).
 * Bindings proposed by a model go through the same `checkBindings`. The type check against
 * contracts/index.d.ts runs later, over all call-sites at once.
 */
import type { CallSiteAction, CallSiteStage, Contract, Parent, Unit } from '../ir/types.js';
import { actionLines, type ActionLine } from '../extract/action-lines.js';
import { entanglement } from '../verify/checks.js';
import { instantiate, matchTemplate } from '../rewrite/templates.js';
import { headingLength } from '../rewrite/splice.js';
import { authorTemplateOf, matchConcrete, stripActionLabel } from '../extract/author-templates.js';
import { collapse } from '../text/collapse.js';

export interface MatchedLine {
  readonly template: Contract['templates'][number];
  readonly line: number;
  readonly text: string;
  readonly values: Readonly<Record<string, string>>;
}

export type Detection = { readonly ok: true; readonly matched: readonly MatchedLine[] } | { readonly ok: false; readonly stage: 'detect'; readonly reason: string; readonly matched: number };

export type BindingCheck =
  | { readonly ok: true; readonly bindings: Record<string, string>; readonly actions: CallSiteAction[] }
  | { readonly ok: false; readonly stage: CallSiteStage; readonly reason: string };

export type BindOutcome = (BindingCheck & { readonly ok: true }) | { readonly ok: false; readonly stage: CallSiteStage; readonly reason: string; readonly matched: number };

export function bindUnit(contract: Contract, parent: Parent, unit: Unit, lines: readonly ActionLine[] = actionLines(unit)): BindOutcome {
  const d = detectUnit(contract, parent, unit, lines);
  if (!d.ok) return d;
  const r = checkBindings(contract, unit, d.matched, alignedBindings(d.matched));
  return r.ok ? r : { ...r, matched: d.matched.length };
}

/** The unit's action lines that match a template (first matching template per line), and whether the unit can be replaced. */
export function detectUnit(contract: Contract, parent: Parent, unit: Unit, lines: readonly ActionLine[]): Detection {
  if (contract.scope === 'action') return detectAction(contract, lines);
  const required = new Set(contract.input_schema.filter((f) => f.required).map((f) => f.name));
  const matched: MatchedLine[] = [];
  for (const line of lines) {
    for (const t of contract.templates) {
      const values = matchTemplate(t, line.text, new Set(t.slots.filter((s) => required.has(s))));
      if (values) {
        matched.push({ template: t, line: line.line, text: line.text, values });
        break;
      }
    }
  }
  if (matched.length === 0) return { ok: false, stage: 'detect', reason: 'no action line of the unit matches the contract templates', matched: 0 };
  if (headingLength(unit) === null) return { ok: false, stage: 'detect', reason: 'its heading is nested in a list or block quote, so the section cannot be swapped for one line', matched: matched.length };
  const templated = new Set(matched.map((m) => `${unit.id}\u0000${m.line}`));
  const tangled = entanglement({ parent, unit }, templated);
  if (tangled) return { ok: false, stage: 'detect', reason: `not replaceable: ${tangled.why} (line ${tangled.line})`, matched: matched.length };
  return { ok: true, matched };
}

/**
 * A contract of one action is called by one line: the unit's first concrete line that matches the
 * template (an author's own template line is a definition, not a call), with the unit's other
 * lines of the same call (the same values). A label such as `Action:` is not part of the action.
 */
function detectAction(contract: Contract, lines: readonly ActionLine[]): Detection {
  const t = contract.templates[0]!;
  const matched: MatchedLine[] = [];
  for (const line of lines) {
    if (authorTemplateOf(line)) continue;
    const text = stripActionLabel(line.text);
    const values = matchConcrete(t, line.text);
    if (!values) continue;
    if (matched.length > 0 && Object.keys(values).some((k) => values[k] !== matched[0]!.values[k])) continue;
    matched.push({ template: t, line: line.line, text, values });
  }
  if (matched.length === 0) return { ok: false, stage: 'detect', reason: 'no action line of the unit matches the contract template', matched: 0 };
  return { ok: true, matched };
}

/** Slot values from the aligned lines: the first non-empty value of each slot. */
export function alignedBindings(matched: readonly MatchedLine[]): Record<string, string> {
  const bindings: Record<string, string> = {};
  for (const m of matched) for (const [k, v] of Object.entries(m.values)) if (v !== '' && !(k in bindings)) bindings[k] = v;
  return bindings;
}

/** The binding and round-trip post-checks; on success the bindings of declared inputs in the contract's input order. */
export function checkBindings(contract: Contract, unit: Unit, matched: readonly MatchedLine[], bindings: Readonly<Record<string, string>>): BindingCheck {
  const unitText = collapse(unit.text);
  for (const f of contract.input_schema) {
    if (!f.required) continue;
    const v = bindings[f.name];
    if (v === undefined) return { ok: false, stage: 'binding', reason: `required input ${f.name} is unbound` };
    if (!unitText.includes(v)) return { ok: false, stage: 'binding', reason: `${f.name}="${v}" does not occur in the unit` };
  }
  for (const m of matched) {
    const back = instantiate(m.template, bindings);
    if (back !== collapse(m.text)) {
      return { ok: false, stage: 'round-trip', reason: `line ${m.line}: \`${m.template.template}\` with the bindings gives "${back}", not "${collapse(m.text)}"` };
    }
  }
  // Only bindings of declared inputs go into the invoke; keep the contract's input order.
  const ordered: Record<string, string> = {};
  for (const f of contract.input_schema) if (bindings[f.name] !== undefined) ordered[f.name] = bindings[f.name]!;
  return { ok: true, bindings: ordered, actions: matched.map((m) => ({ template: m.template.template, line: m.line, text: collapse(m.text) })) };
}
