/**
 * The verifier's decision (SPEC §2 pass 4): gates in order — extraction failed, schema invalid,
 * form (a template that is no procedure, issue 19 item 6), risk ≥ riskMax, binding < bindingMin, coverage < coverageMin, replacement < replacementMin —
 * then s = (w_b·binding + w_c·coverage + w_r·replacement − w_s·risk) / (w_b + w_c + w_r), clamped,
 * and the tiers auto_promote (s ≥ τ_auto), review (s ≥ τ_rev), reject. The replacement gate is
 * skillc's addition to SPEC's list: without it a contract whose every call-site is entangled still
 * promotes whenever binding and coverage are high (0.5 of the weight cannot pull s below τ_rev).
 */
import type { CheckName, Contract, Decision, Evidence, Profile, RiskHit } from '../ir/types.js';
import type { Policy } from '../policy/policy.js';
import { roundTo } from '../util/round.js';

export interface Scores {
  readonly coverage: number;
  readonly coverageMin: number;
  readonly binding: number;
  readonly replacement: number;
  readonly risk: number;
}

export function promotionScore(s: Scores, p: Policy): number {
  const w = p.weights;
  const raw = (w.binding * s.binding + w.coverage * s.coverage + w.replacement * s.replacement - w.risk * s.risk) / (w.binding + w.coverage + w.replacement);
  return Math.min(1, Math.max(0, raw));
}

export interface DecisionInput {
  readonly cluster: string;
  readonly contract: Contract | null;
  readonly extractionFailure?: string;
  readonly schemaErrors?: readonly string[];
  /** Templates that are only an import, an assignment, control flow, markup or a heading-like phrase. */
  readonly formErrors?: readonly string[];
  readonly scores: Scores;
  readonly evidence: { readonly coverage: Evidence[]; readonly binding: Evidence[]; readonly replacement: Evidence[] };
  readonly risks: readonly RiskHit[];
}

const round = (x: number) => roundTo(x, 4);

export function decide(input: DecisionInput, policy: Policy): Profile {
  const s = input.scores;
  const scores = { coverage: round(s.coverage), coverageMin: round(s.coverageMin), binding: round(s.binding), replacement: round(s.replacement), risk: round(s.risk) };
  const score = round(promotionScore(s, policy));
  const g = policy.gates;
  const reject = (firstFailed: CheckName, reason: string, evidence: readonly Evidence[]): Profile => ({
    cluster: input.cluster, contract: input.contract?.id ?? null, scores, score, decision: 'reject', firstFailed, reason, evidence: [...evidence], risks: [...input.risks],
  });
  if (input.extractionFailure !== undefined || input.contract === null) return reject('extraction_failed', input.extractionFailure ?? 'no contract draft', []);
  if (input.schemaErrors && input.schemaErrors.length > 0) return reject('schema_invalid', `draft does not match schemas/contract.schema.json: ${input.schemaErrors.join('; ')}`, []);
  if (s.risk >= g.riskMax) {
    const sinks = [...new Set(input.risks.filter((r) => !r.declared).map((r) => r.sink))].join(', ');
    return reject('risk', `risk ${scores.risk} ≥ ${g.riskMax}: undeclared ${sinks}`, []);
  }
  // After risk, so an unsafe sink is what a rejection names first.
  if (input.formErrors && input.formErrors.length > 0) return reject('form', `not a procedure a maintainer would keep: ${input.formErrors.join('; ')}`, []);
  if (s.binding < g.bindingMin) return reject('binding', `binding ${scores.binding} < ${g.bindingMin}: required inputs lack evidence in some source parents`, input.evidence.binding.filter((e) => e.detail.includes('no evidence')));
  if (s.coverage < g.coverageMin) return reject('coverage', `coverage ${scores.coverage} < ${g.coverageMin}: the trigger and I/O names are missing from the source text`, input.evidence.coverage);
  if (s.replacement < g.replacementMin) return reject('replacement', `replacement ${scores.replacement} < ${g.replacementMin}: most source units cannot be swapped for an invoke`, input.evidence.replacement.filter((e) => e.detail.startsWith('not replaceable')));
  const decision: Decision = score >= policy.tiers.autoPromote ? 'auto_promote' : score >= policy.tiers.review ? 'review' : 'reject';
  const witness = [...input.evidence.binding, ...input.evidence.replacement.filter((e) => e.detail.startsWith('replaceable'))];
  if (decision === 'reject') return reject('score', `score ${score} < τ_rev ${policy.tiers.review}`, witness);
  return { cluster: input.cluster, contract: input.contract.id, scores, score, decision, firstFailed: null, reason: `score ${score} ≥ ${decision === 'auto_promote' ? `τ_auto ${policy.tiers.autoPromote}` : `τ_rev ${policy.tiers.review}`}`, evidence: witness, risks: [...input.risks] };
}
