/**
 * Upper confidence bounds for a false-positive rate estimated from k promotions among n negative
 * controls (SPEC §7). A grid point is feasible when the bound is at most the target, so the bound
 * must be conservative: Clopper–Pearson (exact, one-sided) is the default. Wilson's score bound,
 * tighter and approximate, is offered for comparison. With k = 0 the Clopper–Pearson bound is
 * 1 − α^(1/n): n = 30 controls with no false positive only show FP ≤ 9.5 %, and n ≥ 59 are needed
 * to show ≤ 5 % — why SPEC recommends at least 100 per class.
 */

/** P(X ≤ k) for X ~ Binomial(n, p), summed in log space so large n does not underflow. */
export function binomialCdf(k: number, n: number, p: number): number {
  if (k < 0) return 0;
  if (k >= n || p <= 0) return 1;
  if (p >= 1) return 0;
  let logTerm = n * Math.log1p(-p); // log P(X = 0)
  let sum = Math.exp(logTerm);
  for (let i = 1; i <= k; i++) {
    logTerm += Math.log((n - i + 1) / i) + Math.log(p) - Math.log1p(-p);
    sum += Math.exp(logTerm);
  }
  return Math.min(1, sum);
}

/**
 * One-sided Clopper–Pearson upper bound at confidence 1 − α: the largest p with P(X ≤ k | n, p) ≥ α,
 * found by bisection on the (decreasing in p) binomial CDF. n = 0 says nothing: the bound is 1.
 */
export function clopperPearsonUpper(k: number, n: number, alpha = 0.05): number {
  if (n <= 0) return 1;
  if (k >= n) return 1;
  let lo = k / n;
  let hi = 1;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (binomialCdf(k, n, mid) > alpha) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** One-sided Wilson score upper bound at confidence 1 − α (z for α = 0.05 is 1.6449). */
export function wilsonUpper(k: number, n: number, alpha = 0.05): number {
  if (n <= 0) return 1;
  const z = normalQuantile(1 - alpha);
  const p = k / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const margin = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return Math.min(1, (centre + margin) / (1 + z2 / n));
}

/** Inverse of the standard normal CDF (Acklam's rational approximation, relative error < 1.2e-9). */
export function normalQuantile(q: number): number {
  if (q <= 0 || q >= 1) throw new RangeError(`quantile must be in (0, 1), got ${q}`);
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const lowTail = 0.02425;
  if (q < lowTail) {
    const r = Math.sqrt(-2 * Math.log(q));
    return (((((c[0]! * r + c[1]!) * r + c[2]!) * r + c[3]!) * r + c[4]!) * r + c[5]!) / ((((d[0]! * r + d[1]!) * r + d[2]!) * r + d[3]!) * r + 1);
  }
  if (q > 1 - lowTail) return -normalQuantile(1 - q);
  const r = q - 0.5;
  const s = r * r;
  return ((((((a[0]! * s + a[1]!) * s + a[2]!) * s + a[3]!) * s + a[4]!) * s + a[5]!) * r) / (((((b[0]! * s + b[1]!) * s + b[2]!) * s + b[3]!) * s + b[4]!) * s + 1);
}
