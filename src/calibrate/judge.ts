/**
 * Runs the verifier on every control, exactly as the verify pass runs it on a real draft, and keeps
 * what the threshold search needs: the gate that rejected it (threshold-independent) or, when it
 * passed every gate, its promotion score. Real candidates are read off the build's profiles.
 */
import type { CheckName, Profile } from '../ir/types.js';
import type { Policy } from '../policy/policy.js';
import type { RiskScanFn } from '../verify/checks.js';
import { verifyDraft } from '../verify/verify-draft.js';
import type { Control, ControlClassName } from './controls/control.js';

export type Gate = Exclude<CheckName, 'score'>;

/** What decides an item's tier at any (τ_auto, τ_rev): a gate that already rejected it, or its score. */
export interface Scored {
  readonly gate: Gate | null;
  readonly score: number;
}

export interface JudgedControl extends Scored {
  readonly id: string;
  readonly class: ControlClassName;
  readonly kind: 'negative' | 'positive';
  readonly units: readonly string[];
  readonly parents: readonly string[];
  readonly trigger: string;
  readonly note: string;
  readonly scores: Profile['scores'];
  readonly reason: string;
}

export function scoredOf(p: Profile): Scored {
  return { gate: p.firstFailed === null || p.firstFailed === 'score' ? null : p.firstFailed, score: p.score };
}

export function judgeControls(controls: readonly (Control & { kind: 'negative' | 'positive' })[], scan: RiskScanFn, policy: Policy): JudgedControl[] {
  return controls.map((c) => {
    const profile = verifyDraft(c.contract, c.members, scan, policy);
    return {
      ...scoredOf(profile),
      id: c.id,
      class: c.class,
      kind: c.kind,
      units: c.members.map((m) => m.unit.id),
      parents: [...new Set(c.members.map((m) => m.parent.path))],
      trigger: c.contract.trigger,
      note: c.note,
      scores: profile.scores,
      reason: profile.reason,
    };
  });
}
