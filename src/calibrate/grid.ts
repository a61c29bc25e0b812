/**
 * The threshold search (SPEC §7). Every grid point (τ_auto, τ_rev) is scored on three populations:
 * negative controls, positive controls and the library's real candidates. An item rejected by a
 * gate is rejected at every point; otherwise its score picks the tier.
 *
 * Two rates are bounded, each by a one-sided 95% upper confidence bound over all negatives:
 * - false promotion: negatives at auto_promote (only those enter the library unattended), ≤ the
 *   FP target;
 * - review load: negatives at review or above (a person reads them), ≤ the review target.
 * Among feasible points the one with the highest recall (positives auto-promoted) wins, then the
 * most positives kept for review, then the stricter point (higher τ_auto, then higher τ_rev).
 * Nothing to choose from is reported, never papered over: no negative reached the score
 * (degenerate), no positive did, or no point is feasible.
 */
import { clopperPearsonUpper, wilsonUpper } from './confidence.js';
import { groupBy } from '../util/group-by.js';
import type { Scored } from './judge.js';
import { roundTo } from '../util/round.js';

export type Tier = 'auto_promote' | 'review' | 'reject';
export type BoundMethod = 'clopper-pearson' | 'wilson';

export function tierAt(x: Scored, tauAuto: number, tauRev: number): Tier {
  if (x.gate !== null) return 'reject';
  return x.score >= tauAuto ? 'auto_promote' : x.score >= tauRev ? 'review' : 'reject';
}

/** τ values on a 0.05 grid: τ_auto 0.10 … 0.95, τ_rev 0.05 … τ_auto (τ_rev = τ_auto: no review band). */
export function gridPairs(): [number, number][] {
  const out: [number, number][] = [];
  for (let a = 2; a <= 19; a++) for (let r = 1; r <= a; r++) out.push([a * 5 / 100, r * 5 / 100]);
  return out;
}

export interface Counts {
  readonly n: number;
  readonly auto: number;
  readonly review: number;
}

export interface GridPoint {
  readonly tauAuto: number;
  readonly tauRev: number;
  readonly real: Counts;
  readonly negatives: Counts;
  readonly positives: Counts;
  /** Negatives auto-promoted / negatives, and its upper bound. */
  readonly fpRate: number;
  readonly fpUpper: number;
  /** Negatives at review or above / negatives, and its upper bound. */
  readonly reviewRate: number;
  readonly reviewUpper: number;
  /** Positives auto-promoted / positives; positives at review or above / positives. */
  readonly recall: number;
  readonly reviewRecall: number;
  readonly feasible: boolean;
}

export interface SearchOptions {
  readonly fpTarget: number;
  readonly reviewTarget: number;
  readonly bound: BoundMethod;
  readonly alpha: number;
}

export function upperBound(k: number, n: number, opts: Pick<SearchOptions, 'bound' | 'alpha'>): number {
  if (n === 0) return 1;
  return opts.bound === 'wilson' ? wilsonUpper(k, n, opts.alpha) : clopperPearsonUpper(k, n, opts.alpha);
}

function count(xs: readonly Scored[], a: number, r: number): Counts {
  let auto = 0;
  let review = 0;
  for (const x of xs) {
    const t = tierAt(x, a, r);
    if (t === 'auto_promote') auto++;
    else if (t === 'review') review++;
  }
  return { n: xs.length, auto, review };
}

const ratio = (k: number, n: number) => (n === 0 ? 0 : k / n);
const r4 = (x: number) => roundTo(x, 4);

export function evaluatePoint(a: number, r: number, negatives: readonly Scored[], positives: readonly Scored[], real: readonly Scored[], opts: SearchOptions): GridPoint {
  const neg = count(negatives, a, r);
  const pos = count(positives, a, r);
  const fpUpper = upperBound(neg.auto, neg.n, opts);
  const reviewUpper = upperBound(neg.auto + neg.review, neg.n, opts);
  return {
    tauAuto: a,
    tauRev: r,
    real: count(real, a, r),
    negatives: neg,
    positives: pos,
    fpRate: r4(ratio(neg.auto, neg.n)),
    fpUpper: r4(fpUpper),
    reviewRate: r4(ratio(neg.auto + neg.review, neg.n)),
    reviewUpper: r4(reviewUpper),
    recall: r4(ratio(pos.auto, pos.n)),
    reviewRecall: r4(ratio(pos.auto + pos.review, pos.n)),
    feasible: fpUpper <= opts.fpTarget && reviewUpper <= opts.reviewTarget,
  };
}

export function evaluateGrid(negatives: readonly Scored[], positives: readonly Scored[], real: readonly Scored[], opts: SearchOptions): GridPoint[] {
  return gridPairs().map(([a, r]) => evaluatePoint(a, r, negatives, positives, real, opts));
}

/** Better first: recall, then review recall, then the stricter point. */
export function comparePoints(p: GridPoint, q: GridPoint): number {
  return q.recall - p.recall || q.reviewRecall - p.reviewRecall || q.tauAuto - p.tauAuto || q.tauRev - p.tauRev;
}

export type Choice =
  | { readonly kind: 'chosen'; readonly point: GridPoint }
  | { readonly kind: 'kept'; readonly reason: 'degenerate' | 'no-positive' | 'infeasible'; readonly message: string };

export function choosePoint(points: readonly GridPoint[], negatives: readonly Scored[], positives: readonly Scored[], opts: SearchOptions): Choice {
  const negReached = negatives.filter((x) => x.gate === null).length;
  if (negReached === 0) {
    const why = negatives.length === 0 ? 'no negative control could be built' : `all ${negatives.length} negative controls were rejected by a gate before the score`;
    return { kind: 'kept', reason: 'degenerate', message: `the controls cannot separate thresholds: ${why}, so every (τ_auto, τ_rev) shows the same false-positive rate. The current policy is kept.` };
  }
  if (!positives.some((x) => x.gate === null)) {
    return { kind: 'kept', reason: 'no-positive', message: `no positive control reached the score (${positives.length} built), so recall is 0 at every point and there is nothing to trade. The current policy is kept.` };
  }
  const feasible = points.filter((p) => p.feasible);
  if (feasible.length === 0) {
    const n = negatives.length;
    const floor = upperBound(0, n, opts);
    const hint = floor > opts.fpTarget ? ` With ${n} negatives even zero false positives bound the rate only to ${(floor * 100).toFixed(1)}%; build more controls (--per-class).` : '';
    return { kind: 'kept', reason: 'infeasible', message: `no grid point keeps the ${Math.round((1 - opts.alpha) * 100)}% upper bound of the false-promotion rate ≤ ${opts.fpTarget} and of the review rate ≤ ${opts.reviewTarget}.${hint} The current policy is kept.` };
  }
  return { kind: 'chosen', point: [...feasible].sort(comparePoints)[0]! };
}

/** One row per τ_auto: its best point (feasible if any τ_rev is), for the operating-curve table and plot. */
export function operatingCurve(points: readonly GridPoint[]): GridPoint[] {
  const byAuto = groupBy(points, (p) => String(p.tauAuto));
  return [...byAuto.values()].sort((x, y) => x[0]!.tauAuto - y[0]!.tauAuto).map((g) => {
    const ok = g.filter((p) => p.feasible).sort(comparePoints);
    return ok[0] ?? g.find((p) => p.tauRev === p.tauAuto) ?? g[g.length - 1]!;
  });
}
