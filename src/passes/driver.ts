/**
 * Runs the registered passes in order over the IR: checks each pass's inputs exist, times it,
 * collects its diagnostics (sorted at the end so scheduling never changes the report), and
 * forwards progress. A pass that throws is a bug in skillc, reported as SKC001 with the pass name;
 * the passes after it that need its output are not run.
 */
import type { BuildIR } from '../ir/types.js';
import { compareDiagnostics, makeDiagnostic, type Diagnostic } from '../ir/diagnostics.js';
import type { Pass } from './pass.js';
import type { ModelService } from '../llm/model-service.js';
import type { CacheStore } from '../cache/store.js';

export interface PassTiming {
  readonly pass: string;
  readonly ms: number;
  readonly diagnostics: number;
  readonly status: 'ok' | 'failed' | 'not-run';
}

export interface PipelineResult {
  readonly ir: BuildIR;
  readonly diagnostics: readonly Diagnostic[];
  readonly timings: readonly PassTiming[];
}

export interface PipelineHooks {
  onPassStart?(pass: Pass): void;
  onProgress?(pass: Pass, done: number, total: number): void;
  /** `ir` is the IR after the pass. */
  onPassEnd?(pass: Pass, timing: PassTiming, ir: BuildIR): void;
}

export async function runPipeline(initial: BuildIR, passes: readonly Pass[], hooks: PipelineHooks = {}, jobs = 1, llm?: ModelService, cache?: CacheStore): Promise<PipelineResult> {
  let ir = initial;
  const diagnostics: Diagnostic[] = [...initial.source.diagnostics];
  const timings: PassTiming[] = [];
  for (const pass of passes) {
    const missing = pass.requires.filter((k) => ir[k] === undefined);
    if (missing.length > 0) {
      timings.push({ pass: pass.name, ms: 0, diagnostics: 0, status: 'not-run' });
      continue;
    }
    hooks.onPassStart?.(pass);
    const own: Diagnostic[] = [];
    const t0 = performance.now();
    let status: PassTiming['status'] = 'ok';
    try {
      const out = await pass.run(ir, {
        report: (d) => own.push(d),
        progress: (done, total) => hooks.onProgress?.(pass, done, total),
        jobs,
        ...(llm ? { llm } : {}),
        ...(cache ? { cache } : {}),
      });
      ir = { ...ir, ...out };
    } catch (err) {
      status = 'failed';
      own.push(makeDiagnostic(pass.name, 'internal-error', { file: '.', message: `pass ${pass.name} failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}` }));
    }
    const timing: PassTiming = { pass: pass.name, ms: performance.now() - t0, diagnostics: own.length, status };
    timings.push(timing);
    diagnostics.push(...own);
    hooks.onPassEnd?.(pass, timing, ir);
  }
  diagnostics.sort(compareDiagnostics);
  return { ir, diagnostics, timings };
}
