/**
 * What a pass is: a named, versioned, pure function from the IR to the fields it adds. It may
 * report diagnostics and progress through its context; it never reads or writes files.
 */
import type { BuildIR } from '../ir/types.js';
import type { Diagnostic } from '../ir/diagnostics.js';
import type { ModelService } from '../llm/model-service.js';
import type { CacheStore } from '../cache/store.js';

export interface PassContext {
  report(d: Diagnostic): void;
  progress(done: number, total: number): void;
  /** How many workers (processes or threads) a pass may use for CPU-bound work (its output must not depend on it). */
  readonly jobs: number;
  /**
   * With --llm: the model the model-assisted passes may ask (SPEC §3). Its replies are cached on
   * disk, so a pass stays a function of the IR and the replies.
   */
  readonly llm?: ModelService;
  /**
   * With a build cache (--cache): where a pass may keep results keyed by the hashes of their
   * inputs. A pass's output must be the same with or without it (tests build both ways).
   */
  readonly cache?: CacheStore;
}

export interface Pass {
  readonly name: string;
  /** One line for --help and the report. */
  readonly description: string;
  /** Bumped when the pass's output changes for the same input (cache keys include it). */
  readonly version: number;
  /** IR fields the pass reads (checked by the driver) and the fields it adds. */
  readonly requires: readonly (keyof BuildIR)[];
  readonly provides: readonly (keyof BuildIR)[];
  run(ir: BuildIR, ctx: PassContext): Partial<BuildIR> | Promise<Partial<BuildIR>>;
}
