/**
 * `skillc calibrate <library> [<other-library> …]`: build negative and positive controls, search
 * (τ_auto, τ_rev), write the chosen policy and the report (calibration.json, calibration.md,
 * curve.svg). Exit codes: 0 a point was chosen, 1 no point could be chosen (degenerate controls,
 * no positive reached the score, or nothing feasible; the current policy is written unchanged),
 * 2 usage error, unreadable library or policy.
 */
import { escapeBlock, escapeInline } from '../text/terminal.js';
import fs from 'node:fs';
import path from 'node:path';
import pc from 'picocolors';
import { LibraryUnreadableError } from '../load/load-library.js';
import { loadPolicy, PolicyError, type Policy } from '../policy/policy.js';
import { makeScan } from '../passes/verify.js';
import { calibrate } from '../calibrate/calibrate.js';
import { renderReport, resultLines } from '../calibrate/report.js';
import { renderCurveSvg } from '../calibrate/svg.js';
import type { BoundMethod } from '../calibrate/grid.js';
import { stableStringify } from '../util/stable-json.js';
import { createProgress } from './progress.js';
import { defaultJobs, type CommandIO } from './build-command.js';

export interface CalibrateCommandOptions {
  readonly perClass: number;
  readonly seed: number;
  readonly fpTarget: number;
  readonly reviewTarget: number;
  readonly bound: BoundMethod;
  readonly policy?: string;
  readonly output: string;
  readonly reportDir: string;
  readonly jobs?: number;
  readonly quiet?: boolean;
  readonly progress?: boolean;
}

export async function calibrateCommand(libraries: readonly string[], opts: CalibrateCommandOptions, io: CommandIO): Promise<number> {
  const err = (s: string) => io.stderr.write(s);
  const c = io.stderr.isTTY === true && !process.env.NO_COLOR ? pc : pc.createColors(false);
  if (opts.reviewTarget < opts.fpTarget) {
    err(`skillc calibrate: --review-target (${opts.reviewTarget}) must be at least --fp-target (${opts.fpTarget}): everything auto-promoted is also seen at review or above\n`);
    return 2;
  }
  let policy: Policy;
  try {
    policy = loadPolicy(opts.policy);
  } catch (e) {
    if (e instanceof PolicyError) {
      err(`skillc calibrate: ${escapeInline(e.message)}\n`);
      return 2;
    }
    throw e;
  }
  const progress = createProgress(io.stderr, opts.progress !== false && !opts.quiet);
  let stage = '';
  const t0 = performance.now();
  let cal;
  try {
    cal = await calibrate(libraries, {
      policy,
      perClass: opts.perClass,
      seed: opts.seed,
      fpTarget: opts.fpTarget,
      reviewTarget: opts.reviewTarget,
      bound: opts.bound,
      scan: await makeScan(),
      jobs: opts.jobs ?? defaultJobs(),
      onStage: (label) => (stage = label),
      hooks: { onProgress: (pass, d, t) => progress.update(`${stage} ${pass.name}`, d, t), onPassEnd: () => progress.done() },
    });
  } catch (e) {
    progress.done();
    if (e instanceof LibraryUnreadableError) {
      err(`skillc calibrate: ${escapeInline(e.message)}\n`);
      return 2;
    }
    throw e;
  }
  progress.done();

  const report = renderReport(cal, opts.output);
  const files: [string, string][] = [
    [path.join(opts.reportDir, 'calibration.json'), stableStringify(cal)],
    [path.join(opts.reportDir, 'calibration.md'), report],
    [path.join(opts.reportDir, 'curve.svg'), renderCurveSvg(cal)],
    [opts.output, stableStringify(cal.policy)],
  ];
  try {
    for (const [file, text] of files) {
      fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
      fs.writeFileSync(file, text);
    }
  } catch (e) {
    err(`skillc calibrate: cannot write ${escapeInline(e instanceof Error ? e.message : String(e))}\n`);
    return 2;
  }
  // The report names skills and units of the libraries: shown with their control characters escaped.
  if (!opts.quiet) io.stdout.write(escapeBlock(report));
  else io.stdout.write(escapeBlock(resultLines(cal, opts.output).join('\n') + '\n'));
  const built = cal.classes.map((k) => `${k.name} ${k.built}`).join(', ');
  err(`${c.bold('skillc calibrate')}: ${built}; ${cal.grid.length} grid points; ${cal.choice.kind === 'chosen' ? c.green(`chose (${cal.choice.tauAuto.toFixed(2)}, ${cal.choice.tauRev.toFixed(2)})`) : c.red(`kept the current policy (${cal.choice.reason})`)}; wrote ${escapeInline(opts.output)} and ${escapeInline(opts.reportDir)}/ in ${((performance.now() - t0) / 1000).toFixed(2)}s\n`);
  return cal.choice.kind === 'chosen' ? 0 : 1;
}
