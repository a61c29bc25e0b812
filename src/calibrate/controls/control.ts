/**
 * A calibration control: a cluster forced together from real units (or a real cluster given a
 * foreign contract) plus the contract draft the verifier will judge. Negative classes must be
 * rejected; the positive class is what the thresholds should let through.
 */
import type { Contract } from '../../ir/types.js';
import type { MemberUnit } from '../../extract/contract.js';
import type { Population } from '../population.js';
import type { Rng } from '../random.js';

export type ControlClassName = 'A_cross_domain' | 'B_same_domain_distinct' | 'C_near_miss' | 'D_swapped_contract' | 'P_recurring';

export interface Control {
  /** Kebab-case and unique in the run, e.g. `b-same-domain-distinct-007`. */
  readonly id: string;
  readonly class: ControlClassName;
  readonly members: readonly MemberUnit[];
  readonly contract: Contract;
  /** What makes it a control of its class, e.g. "verbs install ≠ test". */
  readonly note: string;
}

export interface Generated {
  readonly controls: Control[];
  /** Pairings tried, and how many of them gave no contract draft (redrawn: they would say nothing about the thresholds). */
  readonly tried: number;
  readonly extractionFailed: number;
  /** Why fewer than asked were built, or why none could be. */
  readonly shortfall: string | null;
}

export interface ControlClass {
  readonly name: ControlClassName;
  readonly kind: 'negative' | 'positive';
  /** One line for the report and --help. */
  readonly summary: string;
  generate(pop: Population, n: number, rng: Rng): Generated;
}
