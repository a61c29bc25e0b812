/**
 * Pass 3, extract (SPEC §2): one contract draft per cluster, deterministically (see
 * extract/contract.ts). Ids are kebab-case from the trigger, unique across the build: a collision
 * takes the suffix -2, -3 … in cluster order (largest cluster first).
 */
import type { Contract, ExtractionFailure, Parent, Unit } from '../ir/types.js';
import { extractContract, type MemberUnit } from '../extract/contract.js';
import { kebab } from '../text/tokens.js';
import type { Pass } from './pass.js';

export const extractPass: Pass = {
  name: 'extract',
  description: 'one contract draft per cluster: anti-unified templates, typed slots, trigger, conditions, side effects',
  version: 1,
  requires: ['parents', 'clusters'],
  provides: ['contracts', 'extractionFailures'],
  run(ir, ctx) {
    const index = unitIndex(ir.parents!);
    const contracts: Contract[] = [];
    const failures: ExtractionFailure[] = [];
    const ids = new Set<string>();
    ir.clusters!.forEach((cluster, i) => {
      const members: MemberUnit[] = cluster.units.map((id) => index.get(id)!);
      const draft = extractContract(cluster, members);
      if ('reason' in draft) failures.push(draft);
      else {
        const base = kebab(draft.trigger);
        let id = base;
        for (let k = 2; ids.has(id); k++) id = `${base}-${k}`;
        ids.add(id);
        contracts.push({ ...draft, id });
      }
      ctx.progress(i + 1, ir.clusters!.length);
    });
    return { contracts, extractionFailures: failures };
  },
};

export function unitIndex(parents: readonly Parent[]): Map<string, { unit: Unit; parent: Parent }> {
  const index = new Map<string, { unit: Unit; parent: Parent }>();
  for (const p of parents) for (const u of p.units) index.set(u.id, { unit: u, parent: p });
  return index;
}
