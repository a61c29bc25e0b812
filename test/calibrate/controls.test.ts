/**
 * Each control class on the calibration fixture (test/fixtures/calibrate: `home` is calibrated,
 * `away` is the foreign library) behaves as its definition in SPEC §7 says.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPopulation, similarity, type Population, type PoolUnit } from '../../src/calibrate/population.js';
import { CONTROL_CLASSES } from '../../src/calibrate/controls/registry.js';
import type { Control, ControlClassName } from '../../src/calibrate/controls/control.js';
import { RECURRING_COSINE } from '../../src/calibrate/controls/recurring.js';
import { childRng } from '../../src/calibrate/random.js';
import { judgeControls } from '../../src/calibrate/judge.js';
import { makeScan } from '../../src/passes/verify.js';
import { loadPolicy } from '../../src/policy/policy.js';
import { ROOT } from '../helpers/cli.js';

const HOME = path.join(ROOT, 'test/fixtures/calibrate/home');
const AWAY = path.join(ROOT, 'test/fixtures/calibrate/away');
const policy = loadPolicy();
let pop: Population;
let two: Population;

beforeAll(async () => {
  pop = await buildPopulation([HOME], { policy });
  two = await buildPopulation([HOME, AWAY], { policy });
});

function generate(p: Population, name: ControlClassName, n = 10, seed = 1): { controls: Control[]; shortfall: string | null } {
  const cls = CONTROL_CLASSES.find((c) => c.name === name)!;
  return cls.generate(p, n, childRng(seed, name));
}

function poolOf(p: Population, c: Control): PoolUnit[] {
  return c.members.map((m) => p.units.find((u) => u.member.unit.id === m.unit.id)!);
}

describe('control classes', () => {
  it('registry lists the four negative classes of SPEC §7 and the positives', () => {
    expect(CONTROL_CLASSES.map((c) => [c.name, c.kind])).toEqual([
      ['A_cross_domain', 'negative'], ['B_same_domain_distinct', 'negative'], ['C_near_miss', 'negative'], ['D_swapped_contract', 'negative'], ['P_recurring', 'positive'],
    ]);
  });

  it('every control reaches the verifier with a drafted contract whose templates come from its own units (except D)', () => {
    for (const cls of CONTROL_CLASSES.filter((c) => c.name !== 'D_swapped_contract')) {
      for (const c of generate(two, cls.name).controls) {
        const ids = new Set(c.members.map((m) => m.unit.id));
        expect(c.contract.templates.length).toBeGreaterThan(0);
        expect(c.contract.input_schema.length).toBeGreaterThan(0);
        expect(c.contract.templates.every((t) => t.instances.every((i) => ids.has(i.unit)))).toBe(true);
      }
    }
  });

  it('A_cross_domain pairs a unit of the calibrated library with one of the other library, not a near-copy', () => {
    const { controls } = generate(two, 'A_cross_domain');
    expect(controls.length).toBeGreaterThan(0);
    for (const c of controls) {
      const [a, b] = poolOf(two, c);
      expect(new Set([a!.lib, b!.lib])).toEqual(new Set([0, 1]));
      expect(c.members.some((m) => m.parent.path.startsWith('away:'))).toBe(true);
      expect(similarity(two, a!, b!)).toBeLessThan(RECURRING_COSINE);
    }
  });

  it('A_cross_domain is not generated from one library, and says why', () => {
    const g = generate(pop, 'A_cross_domain');
    expect(g.controls).toEqual([]);
    expect(g.shortfall).toMatch(/needs a second library/);
  });

  it('B_same_domain_distinct joins units of different skills whose verbs differ and objects do not overlap', () => {
    const { controls } = generate(pop, 'B_same_domain_distinct');
    expect(controls.length).toBeGreaterThan(0);
    for (const c of controls) {
      const [a, b] = poolOf(pop, c);
      expect(a!.member.parent.path).not.toBe(b!.member.parent.path);
      expect(a!.frame.verb).not.toBe(b!.frame.verb);
      expect(a!.frame.objects.filter((o) => b!.frame.objects.includes(o))).toEqual([]);
    }
  });

  it('C_near_miss joins units with the same verb and different objects that the proposer did not cluster', () => {
    const { controls } = generate(pop, 'C_near_miss');
    expect(controls.length).toBeGreaterThan(0);
    for (const c of controls) {
      const [a, b] = poolOf(pop, c);
      expect(a!.frame.verb).toBe(b!.frame.verb);
      expect(a!.frame.objects.length).toBeGreaterThan(0);
      expect(a!.frame.objects.filter((o) => b!.frame.objects.includes(o))).toEqual([]);
      expect(a!.cluster === null || a!.cluster !== b!.cluster).toBe(true);
    }
  });

  it('D_swapped_contract judges a real cluster against another cluster\'s contract, and binding catches it', async () => {
    const { controls } = generate(pop, 'D_swapped_contract');
    expect(controls.length).toBeGreaterThan(0);
    for (const c of controls) {
      const real = pop.candidates.find((x) => x.members.length === c.members.length && x.members.every((m, i) => m.unit.id === c.members[i]!.unit.id))!;
      expect(real).toBeDefined();
      const ids = new Set(c.members.map((m) => m.unit.id));
      expect(c.contract.templates.some((t) => t.instances.some((i) => ids.has(i.unit)))).toBe(false);
      expect(c.contract.cluster).toBe(c.id);
    }
    const judged = judgeControls(controls.map((c) => ({ ...c, kind: 'negative' as const })), await makeScan(), policy);
    expect(judged.every((j) => j.gate !== null)).toBe(true);
  });

  it('P_recurring takes near-identical units of different skills from one real cluster, and the verifier promotes them', async () => {
    const { controls } = generate(pop, 'P_recurring');
    expect(controls.length).toBeGreaterThan(0);
    for (const c of controls) {
      const [a, b] = poolOf(pop, c);
      expect(a!.cluster).not.toBeNull();
      expect(a!.cluster).toBe(b!.cluster);
      expect(a!.member.parent.path).not.toBe(b!.member.parent.path);
      expect(similarity(pop, a!, b!)).toBeGreaterThanOrEqual(RECURRING_COSINE);
    }
    const judged = judgeControls(controls.map((c) => ({ ...c, kind: 'positive' as const })), await makeScan(), policy);
    expect(judged.every((j) => j.gate === null && j.score >= policy.tiers.autoPromote)).toBe(true);
  });

  it('asks for more than the library holds: builds what it can and says so', () => {
    const g = generate(pop, 'C_near_miss', 50);
    expect(g.controls.length).toBeLessThan(50);
    expect(g.shortfall).toMatch(/^only \d+ of 50/);
  });

  it('the same seed draws the same controls; ids are unique and kebab-case', () => {
    for (const cls of CONTROL_CLASSES) {
      const a = generate(two, cls.name, 10, 7).controls.map((c) => [c.id, c.members.map((m) => m.unit.id), c.contract.trigger]);
      const b = generate(two, cls.name, 10, 7).controls.map((c) => [c.id, c.members.map((m) => m.unit.id), c.contract.trigger]);
      expect(a).toEqual(b);
      expect(new Set(a.map((x) => x[0])).size).toBe(a.length);
      for (const [id] of a) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    }
  });
});
