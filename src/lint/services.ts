/**
 * What rules may need beyond the skill itself, loaded lazily and once per run: the BPE token
 * counter (~30 ms from the prebuilt table), the risk scanner (tree-sitter, and oxc-parser only when some code is
 * JavaScript or TypeScript), the verifier policy, and a built dist's contracts. A lint run that
 * needs none of them pays for none of them, which keeps one skill under 400 ms.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { RiskScanner } from '../risk/scan.js';
import type { LintDist } from './dist.js';
import type { Policy } from '../policy/policy.js';
import { packageRoot } from '../util/package-root.js';

export interface LintServices {
  /** Exact o200k BPE token count. */
  countTokens(text: string): Promise<number>;
  /** A risk scanner; `javascript` asks for one that also parses JS/TS. */
  riskScanner(javascript: boolean): Promise<RiskScanner>;
  /** The verifier's risk gate (policy gates.riskMax): sinks at or above it need declaring by id. */
  riskMax(): number;
  /** The built library given with --dist, or null without one. */
  dist(): Promise<LintDist | null>;
}

export interface ServiceOptions {
  /** Folder of a built library (`skillc build` output). */
  readonly distDir?: string;
}

export function createServices(options: ServiceOptions = {}): LintServices {
  let counter: Promise<(text: string) => number> | undefined;
  let scanner: Promise<RiskScanner> | undefined;
  let scannerHasJs = false;
  let riskMaxValue: number | undefined;
  let dist: Promise<LintDist | null> | undefined;
  return {
    async countTokens(text) {
      counter ??= import('../text/bpe.js').then((m) => m.loadTokenCounter());
      return (await counter)(text);
    },
    async riskScanner(javascript) {
      if (!scanner || (javascript && !scannerHasJs)) {
        scannerHasJs = javascript;
        scanner = import('../risk/scan.js').then((m) => m.createRiskScanner(undefined, { javascript }));
      }
      return scanner;
    },
    riskMax() {
      if (riskMaxValue === undefined) riskMaxValue = defaultRiskMax();
      return riskMaxValue;
    },
    async dist() {
      if (!options.distDir) return null;
      const dir = options.distDir;
      dist ??= import('./dist.js').then((m) => m.loadLintDist(dir));
      return dist;
    },
  };
}

/**
 * The shipped policy's risk gate (policy/policy.ts's defaultPolicyPath). Read without loadPolicy's
 * schema check: policy.ts imports ajv, which would load at the start of every lint that scans
 * code; the shipped file is checked by the test suite.
 */
function defaultRiskMax(): number {
  const file = path.join(packageRoot(), 'rules', 'policy.json');
  const v = (JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Policy>).gates?.riskMax;
  if (typeof v !== 'number') throw new Error(`skillc: ${file} has no gates.riskMax`);
  return v;
}
