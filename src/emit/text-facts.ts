/**
 * Per-skill values that rendering needs and that depend on the parse alone: the o200k token count
 * of each skill's text, the content-term counts of its body (the graph's TF-IDF and BM25F body
 * field), and its artifact mentions (graph/artifacts.ts); and from the body counts, the TF-IDF
 * vectors and each skill's nearest skills (the graph's sem edges). Once the parse pass is done the parse
 * processes have exited and the build's main thread runs alone, so these are computed in a worker
 * thread while the passes run; rendering then reads them instead of computing them. The worker
 * runs the same functions on the same inputs, so the values are the same; a worker that fails
 * costs nothing but the wait, and rendering computes what it lacks.
 *
 * The worker is sent strings only (each skill's frontmatter text and its skillIOInput, which holds
 * everything skillIO reads, unit texts included): a structured clone of the parents themselves
 * cost the main thread 0.4 s, and their elements of parents.json held in memory took the peak RSS
 * of a corpora build past 800 MB, for no gain in wall time (BENCHMARKS.md, issue 22).
 *
 * Only a build with nothing kept from an earlier one starts it: with the build cache's memo tables
 * (a rebuild) rendering reads most of these values from the cache, and a worker would compute
 * every one of them again.
 */
import type { Parent } from '../ir/types.js';
import type { SparseVector, TermCounts } from '../propose/tfidf.js';
import type { BodyModel } from '../graph/build-graph.js';
import type { Neighbour } from '../graph/edges/edge-rule.js';
import type { SkillIO } from '../graph/artifacts.js';
import { skillIOInput } from '../graph/artifacts.js';
import { startHelperThread } from '../util/helper-thread.js';

/** What the worker is sent per skill: its frontmatter text and skillIOInput. */
export interface TextFactsRequest {
  readonly path: string;
  readonly frontmatter: string;
  readonly ioInput: string;
}

/** Per skill, in the order of the parents they were computed for. */
export interface TextFacts {
  /** The parents they are for (rendering checks it has these very objects). */
  readonly parents: readonly Parent[];
  /** o200k tokens of parentText (frontmatter and units). */
  readonly tokens: readonly number[];
  /** termCounts of the body (the units' texts joined). */
  readonly bodyCounts: readonly TermCounts[];
  readonly io: readonly SkillIO[];
  /** TF-IDF vectors of the bodies (from bodyCounts) and each skill's nearest skills: the graph's body model. */
  readonly bodyModel: BodyModel;
}

export interface PendingTextFacts {
  /** The facts, or null if the worker failed. */
  readonly result: Promise<TextFacts | null>;
  /** Stops the worker if it is still running. */
  stop(): void;
}

/** Below this many skills a worker's start costs more than it saves. */
export const TEXT_FACTS_MIN_SKILLS = 64;

const workerUrl = new URL('./text-facts-worker.js', import.meta.url);

export function startTextFacts(parents: readonly Parent[]): PendingTextFacts {
  // Without the worker (not compiled, or not started) rendering computes everything.
  const worker = startHelperThread(workerUrl);
  if (!worker) return { result: Promise.resolve(null), stop: () => {} };
  const result = new Promise<TextFacts | null>((resolve) => {
    let settled = false;
    const settle = (v: TextFacts | null) => {
      if (settled) return;
      settled = true;
      resolve(v);
      void worker.terminate();
    };
    worker.on('message', (m: { tokens: number[]; bodyCounts: TermCounts[]; io: SkillIO[]; vectors: SparseVector[]; nearest: Neighbour[][] } | { error: string }) => {
      const n = parents.length;
      if ('error' in m || m.tokens.length !== n || m.bodyCounts.length !== n || m.io.length !== n || m.vectors.length !== n || m.nearest.length !== n) settle(null);
      else settle({ parents, tokens: m.tokens, bodyCounts: m.bodyCounts, io: m.io, bodyModel: { counts: m.bodyCounts, vectors: m.vectors, nearest: m.nearest } });
    });
    worker.on('error', () => settle(null));
    worker.on('exit', () => settle(null));
    // Not unref'd: a build awaiting the facts must stay alive until they come (the caller stops
    // the worker once it has them, or has given up on them). A request that cannot be made or
    // sent (out of memory) is a worker that failed, not a failed build.
    try {
      worker.postMessage(parents.map((p): TextFactsRequest => ({ path: p.path, frontmatter: p.frontmatter.raw, ioInput: skillIOInput(p) })));
    } catch {
      settle(null);
    }
  });
  return { result, stop: () => void worker.terminate() };
}
