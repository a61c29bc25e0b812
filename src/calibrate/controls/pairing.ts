/**
 * Forced pairs for the unit-pair classes (A, B, C and the positives). For each first unit, in the
 * order given, partners that share an action-line shape with it and satisfy the class's rule are
 * tried in seeded order; the first pair whose forced cluster yields a contract draft becomes a
 * control. Pairs that give no draft are counted and redrawn: a control that dies at extraction
 * cannot tell one threshold from another (SPEC §7).
 */
import type { Cluster } from '../../ir/types.js';
import { extractContract } from '../../extract/contract.js';
import type { PoolUnit, Population } from '../population.js';
import { similarity } from '../population.js';
import { shuffled, type Rng } from '../random.js';
import type { Control, ControlClassName, Generated } from './control.js';

const PARTNER_TRIES = 6;

export interface PairRule {
  readonly className: ControlClassName;
  /** First units, in draw order. */
  readonly firsts: readonly PoolUnit[];
  /** Units a partner may come from. */
  readonly partners: readonly PoolUnit[];
  accept(u: PoolUnit, v: PoolUnit): boolean;
  note(u: PoolUnit, v: PoolUnit): string;
}

export function controlId(className: ControlClassName, k: number): string {
  return `${className.toLowerCase().replace(/_/g, '-')}-${String(k).padStart(3, '0')}`;
}

export function drawPairs(pop: Population, rule: PairRule, n: number, rng: Rng): Generated {
  const byShape = new Map<string, PoolUnit[]>();
  for (const v of rule.partners) {
    for (const s of v.shapes) {
      let list = byShape.get(s);
      if (!list) byShape.set(s, (list = []));
      list.push(v);
    }
  }
  const controls: Control[] = [];
  const used = new Set<string>();
  let tried = 0;
  let extractionFailed = 0;
  for (const u of rule.firsts) {
    if (controls.length >= n) break;
    const seen = new Set<number>();
    const candidates: PoolUnit[] = [];
    for (const s of u.shapes) {
      for (const v of byShape.get(s) ?? []) {
        if (seen.has(v.vector) || v.vector === u.vector) continue;
        seen.add(v.vector);
        if (!used.has(pairKey(u, v)) && rule.accept(u, v)) candidates.push(v);
      }
    }
    candidates.sort((a, b) => a.vector - b.vector);
    for (const v of shuffled(candidates, rng).slice(0, PARTNER_TRIES)) {
      tried++;
      const id = controlId(rule.className, controls.length + 1);
      const members = [u, v].sort((a, b) => (a.member.parent.path < b.member.parent.path ? -1 : a.member.parent.path > b.member.parent.path ? 1 : a.member.unit.index - b.member.unit.index));
      const cluster: Cluster = {
        id,
        units: members.map((m) => m.member.unit.id),
        parents: [...new Set(members.map((m) => m.member.parent.path))].sort(),
        verb: u.frame.verb ?? v.frame.verb ?? 'none',
        objects: [],
        minLinkCosine: Math.round(similarity(pop, u, v) * 1e4) / 1e4,
        origin: 'similarity',
      };
      const draft = extractContract(cluster, members.map((m) => m.member));
      if ('reason' in draft) {
        extractionFailed++;
        continue;
      }
      used.add(pairKey(u, v));
      controls.push({ id, class: rule.className, members: members.map((m) => m.member), contract: { ...draft, id }, note: rule.note(u, v) });
      break;
    }
  }
  const shortfall = controls.length < n ? `only ${controls.length} of ${n}: the library has no more pairs of this class that share an action line and yield a contract draft` : null;
  return { controls, tried, extractionFailed, shortfall };
}

function pairKey(u: PoolUnit, v: PoolUnit): string {
  return u.vector < v.vector ? `${u.vector}:${v.vector}` : `${v.vector}:${u.vector}`;
}

export function disjoint(a: readonly string[], b: readonly string[]): boolean {
  return !a.some((x) => b.includes(x));
}
