/**
 * Where the TypeScript work of a build runs: declarations printed (declarations.ts) and in-memory
 * compiles (type-check.ts). By default in this thread, loading ts-morph and TypeScript on first
 * use (about 0.5 s of the main thread, then the work itself). A cold build of a large library
 * instead starts a worker thread (ts-worker-host.ts) once the parse is done: it loads TypeScript
 * while the passes before verify run on the main thread, and answers the requests of verify, bind
 * and emit. The worker runs the same functions on the same inputs, so the output is the same
 * either way; a worker that fails hands the work back to this thread.
 */
import type { Contract } from '../ir/types.js';
import type { CompileDiagnostic } from './type-check.js';

export interface TypeScriptEngine {
  /** The declarations file of these contracts (renderDeclarations without its memo). */
  render(contracts: readonly Contract[]): Promise<string>;
  /** The diagnostics of the declarations and, when given, the calls (compileInMemory without its memo). */
  compile(dts: string, calls: string | null): Promise<readonly CompileDiagnostic[]>;
}

let remote: TypeScriptEngine | null = null;

/** The engine requests go to instead of this thread (null: this thread). */
export function remoteTypeScriptEngine(): TypeScriptEngine | null {
  return remote;
}

/** Sets (or, with null, clears) the engine requests go to. */
export function useRemoteTypeScriptEngine(engine: TypeScriptEngine | null): void {
  remote = engine;
}
