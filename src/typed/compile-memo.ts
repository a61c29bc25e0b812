/**
 * What TypeScript work a build keeps in the build cache (type-check.ts, declarations.ts): the
 * rendered declarations of a set of contracts, and each in-memory compile's diagnostics, by the
 * hash of their input under skillc's code fingerprint (which covers the installed TypeScript and
 * ts-morph). A rebuild whose contracts and invokes did not change then does not load TypeScript
 * at all (0.4 to 0.6 s) nor check (0.3 s on the corpora). A value read back is used only if it has
 * the shape of what was stored.
 */
import type { CacheStore } from '../cache/store.js';
import { keptValues, type KeptValues } from '../cache/kept.js';
import type { CompileDiagnostic } from './type-check.js';

export interface TypeScriptMemo {
  /** Diagnostics of a compile, by the hash of its sources. */
  readonly compiles: KeptValues<readonly CompileDiagnostic[]>;
  /** Declarations text, by the hash of the contracts' stable JSON. */
  readonly declarations: KeptValues<string>;
}

const isText = (v: unknown): v is string => typeof v === 'string';

function isDiagnostics(v: unknown): v is CompileDiagnostic[] {
  return (
    Array.isArray(v) &&
    v.every((d: unknown) => {
      if (d === null || typeof d !== 'object') return false;
      const x = d as Record<string, unknown>;
      return (x['file'] === null || isText(x['file'])) && (x['line'] === null || Number.isInteger(x['line'])) && isText(x['message']) && Array.isArray(x['related']) && x['related'].every(isText);
    })
  );
}

export function typeScriptMemoOf(cache: CacheStore | undefined): TypeScriptMemo | undefined {
  if (!cache) return undefined;
  return { compiles: keptValues(cache, 'typescript-check', isDiagnostics), declarations: keptValues(cache, 'typescript-declarations', isText) };
}
