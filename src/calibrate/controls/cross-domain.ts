/**
 * A_cross_domain (SPEC §7): a unit of the calibrated library forced together with a unit of
 * another library. The two share an action-line shape (so a contract can be drafted) but are not
 * near-copies of each other (cosine below the positive threshold). Needs a second library; with one,
 * the class is reported as not generated.
 */
import { groupBy } from '../../util/group-by.js';
import { similarity } from '../population.js';
import { interleaved } from '../random.js';
import type { ControlClass } from './control.js';
import { drawPairs } from './pairing.js';
import { RECURRING_COSINE } from './recurring.js';

export const crossDomain: ControlClass = {
  name: 'A_cross_domain',
  kind: 'negative',
  summary: 'a unit of the calibrated library forced together with a unit of another library',
  generate(pop, n, rng) {
    const foreign = pop.units.filter((u) => u.lib > 0);
    if (pop.libraries.length < 2 || foreign.length === 0) {
      return { controls: [], tried: 0, extractionFailed: 0, shortfall: 'not generated: needs a second library (skillc calibrate <library> <other-library>)' };
    }
    const own = pop.units.filter((u) => u.lib === 0);
    const label = (lib: number) => pop.libraries[lib]!.label;
    return drawPairs(pop, {
      className: 'A_cross_domain',
      firsts: interleaved([...groupBy(own, (u) => u.member.parent.path).values()], rng),
      partners: foreign,
      accept: (u, v) => similarity(pop, u, v) < RECURRING_COSINE,
      note: (u, v) => `${label(u.lib)} ${u.member.parent.path} with ${label(v.lib)} ${v.member.parent.path.slice(label(v.lib).length + 1)}`,
    }, n, rng);
  },
};
