/**
 * C_near_miss (SPEC §7, SaP T.5): same verb, different object — `validate email` with `validate
 * phone`. Two units of different skills with the same verb class and disjoint, non-empty objects,
 * not already in one real cluster, forced together.
 */
import { groupBy } from '../../util/group-by.js';
import { interleaved } from '../random.js';
import type { ControlClass } from './control.js';
import { disjoint, drawPairs } from './pairing.js';

export const nearMiss: ControlClass = {
  name: 'C_near_miss',
  kind: 'negative',
  summary: 'two units with the same verb class but different objects forced together',
  generate(pop, n, rng) {
    const own = pop.units.filter((u) => u.lib === 0 && u.frame.verb !== null && u.frame.objects.length > 0);
    return drawPairs(pop, {
      className: 'C_near_miss',
      firsts: interleaved([...groupBy(own, (u) => u.member.parent.path).values()], rng),
      partners: own,
      accept: (u, v) => u.member.parent !== v.member.parent && u.frame.verb === v.frame.verb && disjoint(u.frame.objects, v.frame.objects) && (u.cluster === null || u.cluster !== v.cluster),
      note: (u, v) => `${u.frame.verb}: ${u.frame.objects.join(' ')} vs ${v.frame.objects.join(' ')}`,
    }, n, rng);
  },
};
