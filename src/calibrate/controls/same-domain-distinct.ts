/**
 * B_same_domain_distinct (SPEC §7, SaP T.5): two units of the calibrated library from different
 * skills whose frames differ (different verb classes, no shared object) forced into one cluster.
 * They share an action-line shape, which is what makes them a hard negative rather than noise.
 */
import { groupBy } from '../../util/group-by.js';
import { interleaved } from '../random.js';
import type { ControlClass } from './control.js';
import { disjoint, drawPairs } from './pairing.js';

export const sameDomainDistinct: ControlClass = {
  name: 'B_same_domain_distinct',
  kind: 'negative',
  summary: 'two units of different skills with different frames (verb class and objects) forced together',
  generate(pop, n, rng) {
    const own = pop.units.filter((u) => u.lib === 0 && u.frame.verb !== null);
    return drawPairs(pop, {
      className: 'B_same_domain_distinct',
      firsts: interleaved([...groupBy(own, (u) => u.member.parent.path).values()], rng),
      partners: own,
      accept: (u, v) => u.member.parent !== v.member.parent && u.frame.verb !== v.frame.verb && disjoint(u.frame.objects, v.frame.objects),
      note: (u, v) => `verbs ${u.frame.verb} ≠ ${v.frame.verb}`,
    }, n, rng);
  },
};
