/**
 * Pass 5, bind (SPEC §2): call-site detection and deterministic Binding Extraction for the
 * auto-promoted contracts. Candidates are the member units of each promoted cluster and, elsewhere
 * in the library, units with the cluster's verb class whose action lines match the contract's
 * templates. Each candidate is bound by slot alignment and post-checked (bind/call-site.ts); a
 * unit claimed by several contracts keeps one (member before match, then more matched lines, then
 * the higher verifier score, then the id). Finally every invoke is type-checked against the
 * generated declarations, and a call-site that does not type-check is dropped. Every dropped
 * candidate is kept with its stage and reason.
 */
import type { CallSite, Contract, DroppedCallSite, Parent, Unit } from '../ir/types.js';
import { bindUnit } from '../bind/call-site.js';
import { formatInvoke } from '../rewrite/invoke.js';
import { anchorOf } from '../rewrite/templates.js';
import { actionLines, type ActionLine } from '../extract/action-lines.js';
import { unitIndex } from './extract.js';
import { groupBy } from '../util/group-by.js';
import { compareCodeUnits } from '../util/stable-json.js';
import type { Pass } from './pass.js';

interface Candidate {
  readonly contract: Contract;
  readonly parent: Parent;
  readonly unit: Unit;
  readonly detection: 'member' | 'match';
  readonly score: number;
}

export const bindPass: Pass = {
  name: 'bind',
  description: 'call-sites of promoted contracts: detection, slot-aligned bindings, post-check, round trip, type check',
  version: 1,
  requires: ['parents', 'frames', 'clusters', 'contracts', 'profiles'],
  provides: ['callSites', 'droppedCallSites'],
  async run(ir, ctx) {
    const profiles = new Map(ir.profiles!.map((p) => [p.cluster, p]));
    const promoted = ir.contracts!.filter((c) => profiles.get(c.cluster)?.decision === 'auto_promote');
    const clusters = new Map(ir.clusters!.map((c) => [c.id, c]));
    const index = unitIndex(ir.parents!);
    const frames = new Map(ir.frames!.map((f) => [f.unit, f]));

    const candidates: Candidate[] = [];
    const memberUnits = new Set<string>();
    for (const c of promoted) {
      const cluster = clusters.get(c.cluster)!;
      const score = profiles.get(c.cluster)!.score;
      for (const id of cluster.units) {
        const m = index.get(id)!;
        memberUnits.add(id);
        candidates.push({ contract: c, parent: m.parent, unit: m.unit, detection: 'member', score });
      }
    }
    const byVerb = groupBy(promoted, (c) => clusters.get(c.cluster)!.verb);
    if (byVerb.size > 0) {
      // A unit elsewhere is a candidate only if it holds some template's anchor text (a cheap
      // substring test before any alignment).
      const anchors = new Map(promoted.map((c) => [c.id, c.templates.map(anchorOf).filter((a) => a !== '')]));
      for (const p of ir.parents!) {
        for (const u of p.units) {
          const verb = frames.get(u.id)?.verb;
          if (!verb || memberUnits.has(u.id)) continue;
          for (const c of byVerb.get(verb) ?? []) {
            if (anchors.get(c.id)!.some((a) => u.text.includes(a))) candidates.push({ contract: c, parent: p, unit: u, detection: 'match', score: profiles.get(c.cluster)!.score });
          }
        }
      }
    }
    const linesOf = new Map<string, ActionLine[]>();

    const dropped: DroppedCallSite[] = [];
    const drop = (x: Candidate, stage: DroppedCallSite['stage'], reason: string) =>
      dropped.push({ unit: x.unit.id, parent: x.parent.path, file: x.parent.file, line: x.unit.line, contract: x.contract.id, detection: x.detection, stage, reason });

    const bound: { x: Candidate; bindings: Record<string, string>; actions: CallSite['actions'] }[] = [];
    candidates.forEach((x, i) => {
      if (x.parent.encoding === 'utf-8-invalid') {
        if (x.detection === 'member') drop(x, 'detect', 'SKILL.md is not valid UTF-8: rewriting it would change bytes that were not decoded');
        return;
      }
      let lines = linesOf.get(x.unit.id);
      if (!lines) linesOf.set(x.unit.id, (lines = actionLines(x.unit)));
      const r = bindUnit(x.contract, x.parent, x.unit, lines);
      if (r.ok) bound.push({ x, bindings: r.bindings, actions: r.actions });
      // A unit elsewhere that matches no template was never a candidate: not worth a record.
      else if (x.detection === 'member' || r.matched > 0) drop(x, r.stage, r.reason);
      if (i % 256 === 0) ctx.progress(i, candidates.length);
    });

    // One contract per unit.
    const byUnit = groupBy(bound, (b) => b.x.unit.id);
    const chosen: typeof bound = [];
    for (const list of byUnit.values()) {
      list.sort((a, b) => rank(a.x) - rank(b.x) || b.actions.length - a.actions.length || b.x.score - a.x.score || compareCodeUnits(a.x.contract.id, b.x.contract.id));
      chosen.push(list[0]!);
      for (const other of list.slice(1)) drop(other.x, 'detect', `the unit invokes ${list[0]!.x.contract.id} instead`);
    }

    const { typeCheckInvokes } = await import('../typed/type-check.js');
    const failures = await typeCheckInvokes(promoted, chosen.map((b) => ({ key: b.x.unit.id, contract: b.x.contract.id, bindings: b.bindings })));
    const callSites: CallSite[] = [];
    for (const b of chosen) {
      const error = failures.get(b.x.unit.id);
      if (error !== undefined) {
        drop(b.x, 'type-check', error);
        continue;
      }
      callSites.push({
        unit: b.x.unit.id,
        parent: b.x.parent.path,
        file: b.x.parent.file,
        line: b.x.unit.line,
        contract: b.x.contract.id,
        detection: b.x.detection,
        bindings: b.bindings,
        actions: b.actions,
        invoke: formatInvoke(b.x.contract.id, b.bindings, b.x.contract.input_schema.map((f) => f.name)),
      });
    }
    const order = new Map(ir.parents!.flatMap((p, pi) => p.units.map((u) => [u.id, pi * 1e6 + u.index] as const)));
    const byPosition = (a: { unit: string; contract: string }, b: { unit: string; contract: string }) => order.get(a.unit)! - order.get(b.unit)! || compareCodeUnits(a.contract, b.contract);
    callSites.sort(byPosition);
    dropped.sort(byPosition);
    ctx.progress(candidates.length, candidates.length);
    return { callSites, droppedCallSites: dropped };
  },
};

function rank(x: Candidate): number {
  return x.detection === 'member' ? 0 : 1;
}
