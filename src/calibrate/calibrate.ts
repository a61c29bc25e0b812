/**
 * `skillc calibrate` as a function: build the population, generate every control class with its
 * own seeded stream, judge the controls with the verifier, search the threshold grid and produce
 * the calibration record (calibration.json) and the chosen policy. Writes nothing; the command
 * renders and writes.
 */
import type { Policy } from '../policy/policy.js';
import type { RiskScanFn } from '../verify/checks.js';
import { TOOL_VERSION } from '../version.js';
import { sha256 } from '../util/hash.js';
import { stableStringify } from '../util/stable-json.js';
import { buildPopulation, type Population, type PopulationOptions } from './population.js';
import { CONTROL_CLASSES } from './controls/registry.js';
import type { ControlClassName } from './controls/control.js';
import { childRng } from './random.js';
import { judgeControls, scoredOf, type Gate, type JudgedControl } from './judge.js';
import { choosePoint, evaluateGrid, evaluatePoint, operatingCurve, tierAt, type BoundMethod, type Choice, type GridPoint, type SearchOptions } from './grid.js';

export interface CalibrateOptions extends Omit<PopulationOptions, 'policy'> {
  readonly policy: Policy;
  readonly perClass: number;
  readonly seed: number;
  readonly fpTarget: number;
  readonly reviewTarget: number;
  readonly bound: BoundMethod;
  readonly scan: RiskScanFn;
}

export const GATES: readonly Gate[] = ['extraction_failed', 'schema_invalid', 'risk', 'form', 'binding', 'coverage', 'replacement'];

export interface ClassSummary {
  readonly name: ControlClassName;
  readonly kind: 'negative' | 'positive';
  readonly summary: string;
  readonly asked: number;
  readonly built: number;
  readonly tried: number;
  readonly extractionRedrawn: number;
  readonly shortfall: string | null;
  /** Gate → controls it rejected; `score` → controls that passed every gate. */
  readonly firstFailed: Readonly<Record<Gate | 'score', number>>;
  /** Tiers at the chosen point (or at the kept policy's thresholds). */
  readonly outcome: { readonly auto_promote: number; readonly review: number; readonly reject: number };
}

export interface Calibration {
  readonly schemaVersion: 1;
  readonly tool: { readonly name: 'skillc'; readonly version: string };
  readonly libraries: readonly { readonly label: string; readonly role: 'calibrated' | 'foreign'; readonly skills: number; readonly parsed: number; readonly duplicatesDropped: number; readonly poolUnits: number }[];
  readonly options: { readonly perClass: number; readonly seed: number; readonly fpTarget: number; readonly reviewTarget: number; readonly bound: BoundMethod; readonly confidence: number; readonly policySha256: string };
  readonly classes: readonly ClassSummary[];
  readonly real: { readonly candidates: number; readonly reachedScore: number };
  readonly current: GridPoint;
  readonly curve: readonly GridPoint[];
  readonly grid: readonly GridPoint[];
  readonly choice: { readonly kind: 'chosen'; readonly tauAuto: number; readonly tauRev: number } | { readonly kind: 'kept'; readonly reason: string; readonly message: string };
  readonly policy: Policy;
  readonly controls: readonly JudgedControl[];
}

const ALPHA = 0.05;

/** The grid point that was chosen, or null when the current policy was kept. */
export function chosenPoint(cal: Pick<Calibration, 'choice' | 'grid'>): GridPoint | null {
  const c = cal.choice;
  return c.kind === 'chosen' ? cal.grid.find((g) => g.tauAuto === c.tauAuto && g.tauRev === c.tauRev) ?? null : null;
}

export async function calibrate(roots: readonly string[], opts: CalibrateOptions): Promise<Calibration> {
  return calibrateOn(await buildPopulation(roots, opts), opts);
}

/** The calibration of an already built population (benches reuse one population across seeds). */
export function calibrateOn(pop: Population, opts: CalibrateOptions): Calibration {
  const generated = CONTROL_CLASSES.map((cls) => ({ cls, g: cls.generate(pop, opts.perClass, childRng(opts.seed, cls.name)) }));
  const controls = generated.flatMap(({ cls, g }) => g.controls.map((c) => ({ ...c, kind: cls.kind })));
  const judged = judgeControls(controls, opts.scan, opts.policy);
  const negatives = judged.filter((j) => j.kind === 'negative');
  const positives = judged.filter((j) => j.kind === 'positive');
  const real = pop.candidates.map((c) => scoredOf(c.profile));

  const search: SearchOptions = { fpTarget: opts.fpTarget, reviewTarget: opts.reviewTarget, bound: opts.bound, alpha: ALPHA };
  const grid = evaluateGrid(negatives, positives, real, search);
  const choice: Choice = choosePoint(grid, negatives, positives, search);
  const tiers = opts.policy.tiers;
  const current = evaluatePoint(tiers.autoPromote, tiers.review, negatives, positives, real, search);
  const [a, r] = choice.kind === 'chosen' ? [choice.point.tauAuto, choice.point.tauRev] : [tiers.autoPromote, tiers.review];
  const policy: Policy = choice.kind === 'chosen' ? { ...opts.policy, tiers: { autoPromote: a, review: r } } : opts.policy;

  const classes: ClassSummary[] = generated.map(({ cls, g }) => {
    const mine = judged.filter((j) => j.class === cls.name);
    const firstFailed = Object.fromEntries([...GATES, 'score'].map((k) => [k, 0])) as Record<Gate | 'score', number>;
    const outcome = { auto_promote: 0, review: 0, reject: 0 };
    for (const j of mine) {
      firstFailed[j.gate ?? 'score']++;
      outcome[tierAt(j, a, r)]++;
    }
    return { name: cls.name, kind: cls.kind, summary: cls.summary, asked: opts.perClass, built: g.controls.length, tried: g.tried, extractionRedrawn: g.extractionFailed, shortfall: g.shortfall, firstFailed, outcome };
  });

  return {
    schemaVersion: 1,
    tool: { name: 'skillc', version: TOOL_VERSION },
    libraries: pop.libraries.map((l) => ({ label: l.label, role: l.index === 0 ? 'calibrated' : 'foreign', skills: l.skills, parsed: l.parents.length, duplicatesDropped: l.duplicatesDropped, poolUnits: pop.units.filter((u) => u.lib === l.index).length })),
    options: { perClass: opts.perClass, seed: opts.seed, fpTarget: opts.fpTarget, reviewTarget: opts.reviewTarget, bound: opts.bound, confidence: 1 - ALPHA, policySha256: sha256(stableStringify(opts.policy)) },
    classes,
    real: { candidates: real.length, reachedScore: real.filter((x) => x.gate === null).length },
    current,
    curve: operatingCurve(grid),
    grid,
    choice: choice.kind === 'chosen' ? { kind: 'chosen', tauAuto: a, tauRev: r } : { kind: 'kept', reason: choice.reason, message: choice.message },
    policy,
    controls: judged,
  };
}
