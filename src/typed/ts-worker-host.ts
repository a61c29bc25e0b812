/**
 * Starts the TypeScript worker (ts-worker.ts) and makes it the build's TypeScript engine
 * (engine.ts). Loading ts-morph and TypeScript takes about 0.5 s, and printing and compiling the
 * corpora's declarations and invokes about as long again: in a cold build of a large library both
 * move to a thread that loads while the main thread runs the passes before verify.
 *
 * The worker is a convenience, never a dependency: a worker that cannot start, errs or exits
 * hands every pending and later request back to the main thread, which computes the same value.
 * A request the worker answers with an error throws that error's message, as the function would
 * have thrown on the main thread. Only `stop()` ends it; while no request is pending it does not
 * keep the process alive.
 */
import { startHelperThread } from '../util/helper-thread.js';
import type { Contract } from '../ir/types.js';
import { renderHere } from './declarations.js';
import { compileHere, type CompileDiagnostic } from './type-check.js';
import { remoteTypeScriptEngine, useRemoteTypeScriptEngine, type TypeScriptEngine } from './engine.js';
import type { TypeScriptAsk, TypeScriptReply, TypeScriptRequest } from './ts-worker.js';

export interface TypeScriptWorker {
  /** Stops the worker; what it had not answered is computed on the main thread. */
  stop(): void;
}

const workerUrl = new URL('./ts-worker.js', import.meta.url);

interface Pending {
  resolve(value: unknown): void;
  reject(err: unknown): void;
  /** The same request, on the main thread. */
  here(): Promise<unknown>;
}

export function startTypeScriptWorker(): TypeScriptWorker | null {
  // Without the worker (not compiled, or not started) everything stays on the main thread.
  const worker = startHelperThread(workerUrl);
  if (!worker) return null;
  const pending = new Map<number, Pending>();
  let nextId = 0;
  let done = false;
  const handBack = () => {
    if (done) return;
    done = true;
    if (remoteTypeScriptEngine() === engine) useRemoteTypeScriptEngine(null);
    for (const p of pending.values()) p.here().then(p.resolve, p.reject);
    pending.clear();
    void worker.terminate();
  };
  worker.on('message', (m: TypeScriptReply) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (pending.size === 0) worker.unref();
    if ('error' in m) p.reject(new Error(m.error));
    else p.resolve(m.value);
  });
  worker.on('error', handBack);
  worker.on('exit', handBack);
  // A reply that cannot be deserialised would leave its request unanswered.
  worker.on('messageerror', handBack);
  // After the listeners: adding a 'message' listener refs the worker again.
  worker.unref();

  const ask = <T>(request: TypeScriptAsk, here: () => Promise<T>): Promise<T> => {
    if (done) return here();
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject, here });
      worker.ref();
      try {
        const message: TypeScriptRequest = { ...request, id };
        worker.postMessage(message);
      } catch {
        // A request that cannot be sent (out of memory) is a worker that failed, not a failed build.
        handBack();
      }
    });
  };
  const engine: TypeScriptEngine = {
    render: (contracts: readonly Contract[]) => ask({ op: 'render', contracts }, () => renderHere(contracts)),
    compile: (dts: string, calls: string | null) => ask<readonly CompileDiagnostic[]>({ op: 'compile', dts, calls }, () => compileHere(dts, calls)),
  };
  useRemoteTypeScriptEngine(engine);
  return { stop: handBack };
}
