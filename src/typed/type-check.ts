/**
 * Type-checks the `invoke(...)` lines of rewritten skills against the contracts' declarations.
 * Every invoke becomes one TypeScript call, one per line, in a `calls.ts` that imports the
 * declarations from declarations.ts; the TypeScript checker then says which calls miss a
 * required input, pass one the contract does not have, or put text where a number or boolean
 * belongs, and each diagnostic is traced back to its invoke by line. The check runs in memory
 * without the standard library (a stub declares the handful of global types the checker insists
 * on), so it costs a fraction of a second rather than the seconds loading lib.d.ts would.
 */
import type { Contract } from '../ir/types.js';
import { callExpressionOf, renderDeclarations } from './declarations.js';
import { functionNames } from './identifiers.js';
import { sha256 } from '../util/hash.js';
import type { TypeScriptMemo } from './compile-memo.js';
import { collapse } from '../text/collapse.js';
import { remoteTypeScriptEngine } from './engine.js';

export interface InvokeCall {
  /** The caller's handle for this invoke (e.g. "<file>:<line>"); the result is keyed by it. */
  readonly key: string;
  readonly contract: string;
  readonly bindings: Readonly<Record<string, string>>;
}

/** The global interfaces the checker needs to exist when there is no lib. */
const LIB_STUB = [
  'interface Array<T> { length: number; [n: number]: T; }',
  'interface Boolean {}',
  'interface Function {}',
  'interface IArguments {}',
  'interface Number {}',
  'interface Object {}',
  'interface RegExp {}',
  'interface String {}',
  'interface CallableFunction {}',
  'interface NewableFunction {}',
  '',
].join('\n');

const IMPORT_LINE = 'import * as C from "./index";';

/**
 * Checks each call against its contract. Returns, for every call that fails, its key and the
 * first error (one line of text); a key with several calls gets the first failing call's error.
 * `declarations` is the text renderDeclarations produced for these same contracts (rendered here
 * when absent). When the declarations themselves do not compile (a skillc bug, which one odd
 * contract must not turn into a failed build), the contracts whose own declarations do not
 * compile are found (brokenDeclarations), each call to them fails with that reason, and the other
 * calls are checked without them.
 */
export async function typeCheckInvokes(contracts: readonly Contract[], calls: readonly InvokeCall[], declarations?: string, memo?: TypeScriptMemo): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  if (calls.length === 0) return result;

  const byId = new Map<string, Contract>();
  for (const c of contracts) if (!byId.has(c.id)) byId.set(c.id, c);
  const names = functionNames([...byId.keys()]);

  const errors: (string | undefined)[] = new Array<string | undefined>(calls.length);
  const lines = [IMPORT_LINE];
  // 1-based line number in calls.ts → index of the call written there.
  const callAtLine = new Map<number, number>();
  calls.forEach((call, i) => {
    const contract = byId.get(call.contract);
    if (contract === undefined) {
      errors[i] = `unknown contract "${call.contract}"`;
      return;
    }
    lines.push(`${callExpressionOf(contract, call.bindings, names)};`);
    callAtLine.set(lines.length, i);
  });

  if (callAtLine.size > 0) {
    const dts = declarations ?? (await renderDeclarations([...byId.values()], memo?.declarations));
    const broken: string[] = [];
    for (const d of await compileInMemory(dts, `${lines.join('\n')}\n`, memo)) {
      // The related information names the input a wrong value was meant for ("The expected type
      // comes from property 'width'…"), which the main message leaves out.
      const message = d.message + (d.related.length > 0 ? ` (${d.related.join('; ')})` : '');
      const index = d.file === '/calls.ts' && d.line !== null ? callAtLine.get(d.line) : undefined;
      if (index === undefined) {
        broken.push(`${d.file ?? '(global)'}${d.line !== null ? `:${d.line}` : ''}: ${message}`);
        continue;
      }
      // Diagnostics come sorted by position, so the first one seen for a line is its first error.
      errors[index] ??= message;
    }
    if (broken.length > 0) {
      const bad = await brokenDeclarations([...byId.values()], memo);
      // Declarations that fail together but each compile alone: nothing to isolate, so nothing can be trusted.
      if (bad.size === 0) throw new Error(`typeCheckInvokes: the contract declarations do not compile (a skillc bug): ${broken.join('; ')}`);
      const rest = await typeCheckInvokes([...byId.values()].filter((c) => !bad.has(c.id)), calls.filter((c) => !bad.has(c.contract)), undefined, memo);
      calls.forEach((call) => {
        const why = bad.get(call.contract);
        if (why !== undefined && !result.has(call.key)) result.set(call.key, `the declaration of ${call.contract} does not compile: ${why}`);
      });
      for (const [k, v] of rest) if (!result.has(k)) result.set(k, v);
      return result;
    }
  }

  calls.forEach((call, i) => {
    const error = errors[i];
    if (error !== undefined && !result.has(call.key)) result.set(call.key, error);
  });
  return result;
}

/** One diagnostic of a compile: where (file and 1-based line, when it has them) and what. */
export interface CompileDiagnostic {
  readonly file: string | null;
  readonly line: number | null;
  readonly message: string;
  /** Related information (what a wrong value was meant for), flattened. */
  readonly related: readonly string[];
}

/**
 * The diagnostics of /index.d.ts (the declarations) and, when given, /calls.ts, compiled in
 * memory with the stub lib, in TypeScript's order (by file, then position).
 */
async function compileInMemory(dts: string, calls: string | null, memo?: TypeScriptMemo): Promise<readonly CompileDiagnostic[]> {
  const key = memo ? sha256(`${dts}\u0000${calls ?? ''}\u0000${calls === null ? 0 : 1}`) : '';
  const kept = memo?.compiles.get(key);
  if (kept !== undefined) return kept;
  const engine = remoteTypeScriptEngine();
  const diagnostics = engine ? await engine.compile(dts, calls) : await compileHere(dts, calls);
  memo?.compiles.put(key, diagnostics);
  return diagnostics;
}

/** The diagnostics of a compile in memory, in this thread (the TypeScript worker calls it too). */
export async function compileHere(dts: string, calls: string | null): Promise<readonly CompileDiagnostic[]> {
  const { Project, ts } = await import('ts-morph');
  const project = new Project({
    useInMemoryFileSystem: true,
    skipLoadingLibFiles: true,
    compilerOptions: { strict: true, noLib: true, noEmit: true, types: [], target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler },
  });
  project.createSourceFile('/lib.stub.d.ts', LIB_STUB);
  project.createSourceFile('/index.d.ts', dts);
  if (calls !== null) project.createSourceFile('/calls.ts', calls);
  const flat = (m: Parameters<typeof ts.flattenDiagnosticMessageText>[0]) => collapse(ts.flattenDiagnosticMessageText(m, ' '));
  return project.getPreEmitDiagnostics().map((d) => ({
    file: d.getSourceFile()?.getFilePath() ?? null,
    line: d.getLineNumber() ?? null,
    message: flat(d.compilerObject.messageText),
    related: (d.compilerObject.relatedInformation ?? []).map((r) => flat(r.messageText)),
  }));
}

/** The diagnostics of the declarations alone. */
async function compileDeclarations(dts: string, memo?: TypeScriptMemo): Promise<string[]> {
  return (await compileInMemory(dts, null, memo)).map((d) => d.message);
}

/**
 * The contracts whose declarations do not compile, each with the first error: none when the
 * declarations of all of them compile together (one compile), else each contract is rendered
 * and compiled on its own. Rendering that throws counts as not compiling.
 */
export async function brokenDeclarations(contracts: readonly Contract[], memo?: TypeScriptMemo): Promise<Map<string, string>> {
  const bad = new Map<string, string>();
  if (contracts.length === 0) return bad;
  try {
    if ((await compileDeclarations(await renderDeclarations(contracts, memo?.declarations), memo)).length === 0) return bad;
  } catch {
    // Fall through to the contracts one by one.
  }
  for (const c of contracts) {
    try {
      const errors = await compileDeclarations(await renderDeclarations([c], memo?.declarations), memo);
      if (errors.length > 0) bad.set(c.id, errors[0]!);
    } catch (err) {
      bad.set(c.id, err instanceof Error ? err.message : String(err));
    }
  }
  return bad;
}
