/** Confidence bounds for the false-positive rate, against closed forms and published values. */
import { describe, expect, it } from 'vitest';
import { binomialCdf, clopperPearsonUpper, normalQuantile, wilsonUpper } from '../../src/calibrate/confidence.js';

describe('confidence bounds', () => {
  it('binomial CDF matches direct sums', () => {
    expect(binomialCdf(0, 10, 0.1)).toBeCloseTo(0.9 ** 10, 12);
    expect(binomialCdf(1, 4, 0.5)).toBeCloseTo(5 / 16, 12);
    expect(binomialCdf(4, 4, 0.3)).toBe(1);
    expect(binomialCdf(-1, 4, 0.3)).toBe(0);
  });

  it('Clopper–Pearson with no false positive is 1 − α^(1/n) (the "rule of three" region)', () => {
    for (const n of [10, 30, 59, 100, 400]) expect(clopperPearsonUpper(0, n)).toBeCloseTo(1 - 0.05 ** (1 / n), 9);
    // 30 clean controls cannot show FP ≤ 5 %; 59 can.
    expect(clopperPearsonUpper(0, 30)).toBeGreaterThan(0.05);
    expect(clopperPearsonUpper(0, 58)).toBeGreaterThan(0.05);
    expect(clopperPearsonUpper(0, 59)).toBeLessThanOrEqual(0.05);
  });

  it('Clopper–Pearson one-sided 95 % bounds match the Beta quantiles', () => {
    // qbeta(0.95, k + 1, n - k): (1, 100) → 0.04656, (5, 100) → 0.10220, (10, 50) → 0.31560
    // (each checked by summing the binomial terms exactly: P(X ≤ k) = 0.05 at the bound).
    expect(clopperPearsonUpper(1, 100)).toBeCloseTo(0.04656, 4);
    expect(clopperPearsonUpper(5, 100)).toBeCloseTo(0.1022, 3);
    expect(clopperPearsonUpper(10, 50)).toBeCloseTo(0.3156, 4);
    for (const [k, n] of [[2, 40], [7, 300]] as const) expect(binomialCdf(k, n, clopperPearsonUpper(k, n))).toBeCloseTo(0.05, 9);
    expect(clopperPearsonUpper(3, 3)).toBe(1);
    expect(clopperPearsonUpper(0, 0)).toBe(1);
  });

  it('Wilson is tighter than Clopper–Pearson and above the point estimate', () => {
    for (const [k, n] of [[0, 30], [1, 100], [5, 100], [10, 50]] as const) {
      const w = wilsonUpper(k, n);
      expect(w).toBeGreaterThan(k / n);
      expect(w).toBeLessThan(clopperPearsonUpper(k, n));
    }
  });

  it('normal quantiles', () => {
    expect(normalQuantile(0.95)).toBeCloseTo(1.644854, 6);
    expect(normalQuantile(0.5)).toBeCloseTo(0, 9);
    expect(normalQuantile(0.01)).toBeCloseTo(-2.326348, 6);
  });
});
