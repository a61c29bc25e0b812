/**
 * D_swapped_contract (SPEC §7, SaP T.5): the units of a real cluster judged against the contract
 * drafted for a different cluster — one with another verb class whose templates start with no
 * command the cluster's units use. The contract is relabelled to the cluster; nothing else changes.
 */
import type { RealCandidate } from '../population.js';
import { shuffled } from '../random.js';
import type { Control, ControlClass } from './control.js';
import { controlId } from './pairing.js';
import { shapeKey } from '../../extract/anti-unify.js';

export const swappedContract: ControlClass = {
  name: 'D_swapped_contract',
  kind: 'negative',
  summary: 'a real cluster given the contract of a cluster with another verb and other commands',
  generate(pop, n, rng) {
    const clusters = pop.candidates.filter((c) => c.members.length >= 2);
    const donors = pop.candidates.filter((c): c is RealCandidate & { contract: NonNullable<RealCandidate['contract']> } => c.contract !== null);
    // Action-line shapes per cluster, from the pool (units without action lines have none).
    const unitShapes = new Map(pop.units.filter((u) => u.lib === 0).map((u) => [u.member.unit.id, u.shapes]));
    const shapes = new Map(clusters.map((c) => [c.cluster.id, new Set(c.members.flatMap((m) => unitShapes.get(m.unit.id) ?? []))]));
    const order = shuffled(clusters, rng);
    const options = new Map(order.map((x) => {
      const own = shapes.get(x.cluster.id)!;
      const ok = donors.filter((y) => y.cluster.id !== x.cluster.id && y.cluster.verb !== x.cluster.verb
        && !y.contract.templates.some((t) => own.has(shapeKey(t.source, t.template.split(/\s+/)[0] ?? ''))));
      return [x.cluster.id, shuffled(ok, rng)];
    }));
    const controls: Control[] = [];
    let tried = 0;
    for (let round = 0; controls.length < n; round++) {
      let any = false;
      for (const x of order) {
        if (controls.length >= n) break;
        const y = options.get(x.cluster.id)![round];
        if (!y) continue;
        any = true;
        tried++;
        const id = controlId('D_swapped_contract', controls.length + 1);
        controls.push({
          id,
          class: 'D_swapped_contract',
          members: x.members,
          contract: { ...y.contract, id, cluster: id, source_parents: [...x.cluster.parents] },
          note: `units of ${x.cluster.id} (${x.cluster.verb}) with the contract of ${y.cluster.id} (${y.cluster.verb}: ${y.contract.trigger})`,
        });
      }
      if (!any) break;
    }
    const shortfall = controls.length < n ? `only ${controls.length} of ${n}: not enough pairs of real clusters with different verbs and commands` : null;
    return { controls, tried, extractionFailed: 0, shortfall };
  },
};
