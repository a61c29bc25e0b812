/**
 * P_recurring, the positive controls (SPEC §7): procedures that truly recur. Two units of
 * different skills from the same real cluster of the calibrated library whose texts are
 * near-identical (TF-IDF cosine ≥ 0.8) and whose shared action lines still vary (a contract with
 * inputs can be drafted). These are what the thresholds should promote; recall is measured on them.
 */
import { groupBy } from '../../util/group-by.js';
import { similarity } from '../population.js';
import { interleaved } from '../random.js';
import type { ControlClass } from './control.js';
import { drawPairs } from './pairing.js';

/** Cosine at or above which two units count as the same procedure written twice. */
export const RECURRING_COSINE = 0.8;

export const recurring: ControlClass = {
  name: 'P_recurring',
  kind: 'positive',
  summary: 'two near-identical units (cosine ≥ 0.8) of different skills from one real cluster',
  generate(pop, n, rng) {
    const multi = new Set(pop.candidates.filter((c) => c.cluster.parents.length >= 2).map((c) => c.cluster.id));
    const own = pop.units.filter((u) => u.lib === 0 && u.cluster !== null && multi.has(u.cluster));
    return drawPairs(pop, {
      className: 'P_recurring',
      // One cluster after another, so the biggest cluster does not supply every positive.
      firsts: interleaved([...groupBy(own, (u) => u.cluster!).values()], rng),
      partners: own,
      accept: (u, v) => u.cluster === v.cluster && u.member.parent !== v.member.parent && similarity(pop, u, v) >= RECURRING_COSINE,
      note: (u, v) => `cosine ${similarity(pop, u, v).toFixed(2)} in ${u.cluster}`,
    }, n, rng);
  },
};
