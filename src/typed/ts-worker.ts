/**
 * Worker entry for ts-worker-host.ts: loads ts-morph (and TypeScript) at once, then prints
 * declarations and compiles in memory on request, with the very functions the main thread would
 * call (renderHere, compileHere). Requests and replies are plain data.
 */
import { parentPort } from 'node:worker_threads';
import type { Contract } from '../ir/types.js';
import { renderHere } from './declarations.js';
import { compileHere } from './type-check.js';

/** What the host asks for; sent with an id. */
export type TypeScriptAsk = { readonly op: 'render'; readonly contracts: readonly Contract[] } | { readonly op: 'compile'; readonly dts: string; readonly calls: string | null };
export type TypeScriptRequest = TypeScriptAsk & { readonly id: number };
/** A value, or the message of what the function threw (the host throws it again as an Error). */
export type TypeScriptReply = { readonly id: number; readonly value: unknown } | { readonly id: number; readonly error: string };

// Loaded now, while the main thread runs the passes before its first request. A failure to load
// is left to the requests, which fail as they would on the main thread.
const loaded = import('ts-morph').then(
  () => undefined,
  () => undefined,
);

parentPort?.on('message', (m: TypeScriptRequest) => {
  void (async () => {
    await loaded;
    let reply: TypeScriptReply;
    try {
      reply = { id: m.id, value: m.op === 'render' ? await renderHere(m.contracts) : await compileHere(m.dts, m.calls) };
    } catch (err) {
      reply = { id: m.id, error: err instanceof Error ? err.message : String(err) };
    }
    parentPort!.postMessage(reply);
  })();
});
