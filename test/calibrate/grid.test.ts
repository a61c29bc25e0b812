import { describe, expect, it } from 'vitest';
import { choosePoint, evaluateGrid, evaluatePoint, gridPairs, operatingCurve, tierAt, upperBound, type SearchOptions } from '../../src/calibrate/grid.js';
import type { Scored } from '../../src/calibrate/judge.js';

const opts: SearchOptions = { fpTarget: 0.05, reviewTarget: 0.25, bound: 'clopper-pearson', alpha: 0.05 };
const scored = (score: number): Scored => ({ gate: null, score });
const gated: Scored = { gate: 'binding', score: 0.99 };
const many = (n: number, x: Scored) => Array.from({ length: n }, () => x);

describe('tierAt', () => {
  it('a gate rejects whatever the thresholds, even with a high score', () => {
    expect(tierAt(gated, 0.1, 0.05)).toBe('reject');
  });
  it('the score picks the tier; thresholds are inclusive', () => {
    expect(tierAt(scored(0.65), 0.65, 0.35)).toBe('auto_promote');
    expect(tierAt(scored(0.5), 0.65, 0.35)).toBe('review');
    expect(tierAt(scored(0.35), 0.65, 0.35)).toBe('review');
    expect(tierAt(scored(0.34), 0.65, 0.35)).toBe('reject');
  });
});

describe('grid', () => {
  it('covers τ_auto 0.10–0.95 and τ_rev 0.05–τ_auto on a 0.05 step, exact decimals', () => {
    const g = gridPairs();
    expect(g.length).toBe(189);
    expect(g).toContainEqual([0.65, 0.35]);
    expect(g).toContainEqual([0.3, 0.1]);
    expect(g.every(([a, r]) => r <= a && a >= 0.1 && a <= 0.95 && r >= 0.05)).toBe(true);
    expect(g.map(([a]) => a)).toContain(0.15);
  });

  it('one false promotion in 100 is feasible at 5% (upper bound 4.66%), two are not (6.16%)', () => {
    expect(upperBound(1, 100, opts)).toBeCloseTo(0.0466, 3);
    const neg1 = [...many(99, gated), scored(0.8)];
    const neg2 = [...many(98, gated), scored(0.8), scored(0.8)];
    const pos = many(10, scored(0.9));
    expect(evaluatePoint(0.75, 0.75, neg1, pos, [], opts).feasible).toBe(true);
    expect(evaluatePoint(0.75, 0.75, neg2, pos, [], opts).feasible).toBe(false);
    expect(evaluatePoint(0.85, 0.85, neg2, pos, [], opts)).toMatchObject({ feasible: true, fpRate: 0, recall: 1 });
  });

  it('counts real candidates per tier as SaP table 6 does', () => {
    const p = evaluatePoint(0.65, 0.35, [], [], [scored(0.9), scored(0.5), scored(0.1), gated], opts);
    expect(p.real).toEqual({ n: 4, auto: 1, review: 1 });
  });
});

describe('choosePoint', () => {
  const negatives = [...many(120, gated), scored(0.7), scored(0.72)];
  it('picks the highest recall among feasible points', () => {
    const positives = [...many(8, scored(0.9)), scored(0.76), scored(0.74)];
    const grid = evaluateGrid(negatives, positives, [], opts);
    const c = choosePoint(grid, negatives, positives, opts);
    // τ_auto 0.70 would promote both negatives (bound 5.1% > 5%); 0.75 promotes none and keeps 9 of 10.
    expect(c.kind).toBe('chosen');
    if (c.kind !== 'chosen') return;
    expect(c.point.tauAuto).toBe(0.75);
    expect(c.point.recall).toBe(0.9);
  });

  it('ties on recall go to the stricter point', () => {
    const positives = many(10, scored(0.95));
    const grid = evaluateGrid(negatives, positives, [], opts);
    const c = choosePoint(grid, negatives, positives, opts);
    expect(c.kind === 'chosen' && [c.point.tauAuto, c.point.tauRev]).toEqual([0.95, 0.95]);
  });

  it('lowers τ_rev to keep more positives for review while the review load stays within its target', () => {
    const positives = [...many(5, scored(0.95)), ...many(5, scored(0.5))];
    const grid = evaluateGrid(negatives, positives, [], opts);
    const c = choosePoint(grid, negatives, positives, opts);
    expect(c.kind === 'chosen' && c.point.tauRev).toBe(0.5);
    expect(c.kind === 'chosen' && c.point.reviewRecall).toBe(1);
  });

  it('reports the degenerate case when every negative dies at a gate, instead of choosing the lowest point', () => {
    const neg = many(200, gated);
    const pos = many(10, scored(0.9));
    const c = choosePoint(evaluateGrid(neg, pos, [], opts), neg, pos, opts);
    expect(c).toMatchObject({ kind: 'kept', reason: 'degenerate' });
    expect(c.kind === 'kept' && c.message).toMatch(/cannot separate thresholds: all 200 negative controls were rejected by a gate/);
  });

  it('no positive reaching the score leaves nothing to trade', () => {
    const c = choosePoint(evaluateGrid(negatives, [gated], [], opts), negatives, [gated], opts);
    expect(c).toMatchObject({ kind: 'kept', reason: 'no-positive' });
  });

  it('too few negatives cannot show 5%: says how far the bound gets and asks for more controls', () => {
    const neg = [...many(29, gated), scored(0.3)];
    const pos = many(10, scored(0.9));
    const c = choosePoint(evaluateGrid(neg, pos, [], opts), neg, pos, opts);
    expect(c).toMatchObject({ kind: 'kept', reason: 'infeasible' });
    expect(c.kind === 'kept' && c.message).toMatch(/With 30 negatives even zero false positives bound the rate only to 9\.5%.*--per-class/);
  });

  it('the curve has one row per τ_auto, its best feasible τ_rev when there is one', () => {
    const positives = [...many(5, scored(0.95)), ...many(5, scored(0.5))];
    const curve = operatingCurve(evaluateGrid(negatives, positives, [], opts));
    expect(curve.map((p) => p.tauAuto)).toEqual(gridPairs().filter(([a, r]) => a === r).map(([a]) => a));
    expect(curve.find((p) => p.tauAuto === 0.8)).toMatchObject({ tauRev: 0.5, feasible: true });
    expect(curve.find((p) => p.tauAuto === 0.7)).toMatchObject({ tauRev: 0.7, feasible: false });
  });
});
