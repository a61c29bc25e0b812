/**
 * The model's side of Binding Extraction (SPEC §2 pass 5, §3): the request for one parent (all of
 * its candidate call-sites at once) and the judgement of each answer. An answer is used only if:
 * - it names only inputs of the contract, each once;
 * - every value it gives occurs in the unit text (whitespace-collapsed), as SaP's post-check asks;
 * - the bindings, completed by the aligner's values for inputs it leaves out, pass the same binding
 *   and round-trip checks as deterministic bindings (bind/call-site.ts).
 * should_invoke false is a decline: the candidate is dropped at stage `model`. Anything else keeps
 * the deterministic result and says why.
 */
import type { Contract, Parent, Unit } from '../ir/types.js';
import type { BindReplyItem } from '../llm/prompts/bind-call-sites.js';
import { alignedBindings, checkBindings, type BindingCheck, type MatchedLine } from './call-site.js';
import { clip, contractSummary, fencedBlock } from '../llm/request-text.js';
import { collapse } from '../text/collapse.js';

const MAX_UNIT_CHARS = 3000;
/** Above this, a parent's request is not sent (its candidates keep their deterministic result). */
export const MAX_BIND_REQUEST_CHARS = 60_000;

export interface BindCandidate {
  readonly contract: Contract;
  readonly unit: Unit;
  readonly matched: readonly MatchedLine[];
  /** The deterministic outcome: bindings that passed, or why they did not. */
  readonly deterministic: BindingCheck;
}

export function bindRequest(parent: Parent, candidates: readonly BindCandidate[]): string {
  const out = [`Skill ${parent.path} (${parent.file}): ${candidates.length} candidate call-site${candidates.length === 1 ? '' : 's'}.`];
  candidates.forEach((c, i) => {
    const k = c.contract;
    out.push(
      `## Candidate ${i + 1}: the section at line ${c.unit.line}${c.unit.heading ? ` ("${c.unit.heading}")` : ''} and contract ${k.id}`,
      `Contract ${k.id}: ${k.trigger}`,
      ...contractSummary(k),
      c.deterministic.ok
        ? `Suggested bindings: ${JSON.stringify(c.deterministic.bindings)}`
        : `Suggested bindings: ${JSON.stringify(alignedBindings(c.matched))} (incomplete: ${c.deterministic.reason})`,
      'Section text:',
      fencedBlock(clip(c.unit.text, MAX_UNIT_CHARS)),
    );
  });
  out.push(`Answer each candidate by its number as candidate ("1" … "${candidates.length}").`);
  return out.join('\n\n');
}

export type ModelBinding =
  | { readonly kind: 'accepted'; readonly check: BindingCheck & { ok: true } }
  | { readonly kind: 'declined'; readonly reason: string }
  | { readonly kind: 'rejected'; readonly reason: string };

export function judgeBinding(c: BindCandidate, answer: BindReplyItem | undefined): ModelBinding {
  if (answer === undefined) return { kind: 'rejected', reason: 'the reply does not answer this candidate' };
  if (!answer.should_invoke) return { kind: 'declined', reason: `the model judged it is not a call of ${c.contract.id} (confidence ${answer.confidence}): ${collapse(answer.rationale).slice(0, 200) || 'no rationale'}` };
  const inputs = new Set(c.contract.input_schema.map((f) => f.name));
  const unitText = collapse(c.unit.text);
  const given: Record<string, string> = {};
  for (const b of answer.bindings) {
    if (!inputs.has(b.name)) return { kind: 'rejected', reason: `${b.name} is not an input of ${c.contract.id}` };
    if (b.name in given) return { kind: 'rejected', reason: `${b.name} is bound twice` };
    const v = collapse(b.value);
    if (v === '' || !unitText.includes(v)) return { kind: 'rejected', reason: `${b.name}="${clip(b.value, 80)}" does not occur in the unit` };
    given[b.name] = v;
  }
  const check = checkBindings(c.contract, c.unit, c.matched, { ...alignedBindings(c.matched), ...given });
  if (!check.ok) return { kind: 'rejected', reason: `${check.stage}: ${check.reason}` };
  return { kind: 'accepted', check };
}
