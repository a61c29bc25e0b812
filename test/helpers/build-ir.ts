/** Loads a folder and runs the registered passes in-process, for pass-level tests. */
import { loadLibrary, type LoadOptions } from '../../src/load/load-library.js';
import { runPipeline, type PipelineResult } from '../../src/passes/driver.js';
import { PASSES } from '../../src/passes/registry.js';

export async function buildInProcess(dir: string, options: LoadOptions = {}): Promise<PipelineResult> {
  return runPipeline({ source: loadLibrary(dir, options) }, PASSES);
}
