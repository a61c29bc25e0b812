/**
 * Stability of `skillc calibrate` across seeds: builds the population once, then calibrates with
 * each seed and prints the chosen point, its false-promotion bound and recall, and how many
 * negatives reached the score, with medians.
 *
 *   node build/bench/calibrate-seeds.js <library> [<other-library>] [--per-class 100] [--seeds 1,2,3,4,5]
 */
import { buildPopulation } from '../src/calibrate/population.js';
import { calibrateOn, chosenPoint } from '../src/calibrate/calibrate.js';
import { loadPolicy } from '../src/policy/policy.js';
import { makeScan } from '../src/passes/verify.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1]! : fallback;
};
const perClass = Number(flag('--per-class', '100'));
const seeds = flag('--seeds', '1,2,3,4,5').split(',').map(Number);
if (args.length === 0) {
  console.error('usage: node build/bench/calibrate-seeds.js <library> [<other-library>] [--per-class 100] [--seeds 1,2,3]');
  process.exit(2);
}
const policy = loadPolicy();
const t0 = performance.now();
const pop = await buildPopulation(args, { policy, jobs: 2 });
const tPop = performance.now();
const scan = await makeScan();
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
console.log(`population: ${args.join(' + ')}; ${pop.units.length} pool units, ${pop.candidates.length} real candidates; built in ${((tPop - t0) / 1000).toFixed(1)} s`);
console.log('| seed | negatives | reached score | chosen (τ_auto, τ_rev) | false promotions | FP bound | recall | real auto | default (0.65, 0.35) FP bound | ms |');
console.log('|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|');
const rows: { ub: number; recall: number; a: number; ms: number; cur: number }[] = [];
for (const seed of seeds) {
  const t = performance.now();
  const cal = calibrateOn(pop, { policy, perClass, seed, fpTarget: 0.05, reviewTarget: 0.25, bound: 'clopper-pearson', scan });
  const ms = performance.now() - t;
  const negatives = cal.controls.filter((c) => c.kind === 'negative');
  const reached = negatives.filter((c) => c.gate === null).length;
  const p = chosenPoint(cal);
  if (p) rows.push({ ub: p.fpUpper, recall: p.recall, a: p.tauAuto, ms, cur: cal.current.fpUpper });
  console.log(`| ${seed} | ${negatives.length} | ${reached} | ${p ? `(${p.tauAuto.toFixed(2)}, ${p.tauRev.toFixed(2)})` : `kept: ${(cal.choice as { reason: string }).reason}`} | ${p ? `${p.negatives.auto}/${p.negatives.n}` : '-'} | ${p ? (p.fpUpper * 100).toFixed(2) + '%' : '-'} | ${p ? (p.recall * 100).toFixed(1) + '%' : '-'} | ${p ? p.real.auto : '-'} | ${(cal.current.fpUpper * 100).toFixed(2)}% | ${Math.round(ms)} |`);
}
if (rows.length) console.log(`medians over ${rows.length} seeds: τ_auto ${median(rows.map((r) => r.a)).toFixed(2)}, FP bound ${(median(rows.map((r) => r.ub)) * 100).toFixed(2)}%, recall ${(median(rows.map((r) => r.recall)) * 100).toFixed(1)}%, default-policy FP bound ${(median(rows.map((r) => r.cur)) * 100).toFixed(2)}%, ${Math.round(median(rows.map((r) => r.ms)))} ms per seed`);
