/**
 * What rules may need beyond the skill itself, loaded lazily and once per run: the BPE token
 * counter (~200 ms), the risk scanner (tree-sitter, and typescript-estree only when some code is
 * JavaScript or TypeScript), the verifier policy, and a built dist's contracts. A lint run that
 * needs none of them pays for none of them, which is what keeps one skill well under 400 ms.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
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
      if (tokenWorker) return tokenWorker.count(text);
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

/** A tokenizer loading in a worker thread (see token-worker.ts). */
interface TokenWorker {
  count(text: string): Promise<number>;
  stop(): Promise<void>;
}

let tokenWorker: TokenWorker | undefined;

/**
 * Starts loading the tokenizer on another thread now; countTokens then asks it. For short runs
 * (one skill in a pre-commit hook) this hides the tokenizer's load behind the parser's.
 */
export function startTokenWorker(): void {
  if (tokenWorker) return;
  const url = new URL('./token-worker.js', import.meta.url);
  if (!fs.existsSync(url)) return; // running from TypeScript sources (tests): load inline
  const worker = new Worker(url);
  worker.unref();
  // One pending entry per request; a worker error fails every request still waiting (a listener
  // per request would pile up on the worker).
  const waiting = new Map<number, { resolve: (n: number) => void; reject: (err: Error) => void }>();
  let next = 0;
  let failure: Error | undefined;
  worker.on('message', (msg: { id: number; count: number }) => {
    waiting.get(msg.id)?.resolve(msg.count);
    waiting.delete(msg.id);
  });
  worker.on('error', (err) => {
    failure = err;
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  });
  tokenWorker = {
    count(text) {
      if (failure) return Promise.reject(failure);
      const id = next++;
      return new Promise<number>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, text });
      });
    },
    async stop() {
      tokenWorker = undefined;
      await worker.terminate();
    },
  };
}

export async function stopTokenWorker(): Promise<void> {
  await tokenWorker?.stop();
}
