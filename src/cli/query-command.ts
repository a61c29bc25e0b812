/**
 * `skillc query "<task>" --dist <dist>`: the bundle an agent reads for one task; with `--plan`, the
 * skills a multi-step task needs in the order they are used. Exit 0 with hits, 1 with NO_SKILL_HIT
 * (so scripts can branch on it), 2 for usage errors or an unreadable index.
 *
 * A damaged or hostile dist (its index naming a bundle outside the dist, a missing or oversized
 * bundle, an edge to an unknown node) is one line on stderr, `skillc query: <why>`, and exit 2:
 * the dist is input, and its problems are the user's to fix, not internal errors. Paths and names
 * in that line come from the dist, so their control characters are shown escaped.
 *
 * The markdown answer is what an agent reads, so it is written as the bundles are, byte for byte,
 * to a pipe or a file. On a terminal a person reads it, and a skill's body could hold escape
 * sequences (clear the screen, retitle the window, hide lines): there it is shown through
 * escapeBlock, as `ls` quotes file names only on a terminal.
 */
import fs from 'node:fs';
import { openRetriever } from '../query/retriever.js';
import { IndexError } from '../query/graph-index.js';
import { renderPlanJson, renderPlanMarkdown, renderQueryJson, renderQueryMarkdown } from '../query/render.js';
import { escapeBlock, escapeInline } from '../text/terminal.js';
import { errnoText } from '../util/errno.js';
import { DistReadError } from '../util/confined-read.js';
import type { EmbeddingOptions } from '../embed/embeddings.js';
import { DEFAULT_DENSE_WEIGHT, denseCosines, type DenseScores } from '../query/rank.js';
import type { GraphIndex } from '../query/graph-index.js';

export interface QueryCommandOptions {
  readonly dist: string;
  readonly k: number;
  readonly budget: number;
  readonly format: 'md' | 'json';
  readonly outputFile?: string;
  /** Answer with an ordered plan (query/plan.ts) instead of a ranked list. */
  readonly plan?: boolean;
  /** Fold other versions of a skill (the same name, sem cosine ≥ 0.9) into its best-ranked hit. */
  readonly foldVersions?: boolean;
  /** The task's dense vector mixed into the seeds (embed/embeddings.ts); the model defaults to the dist's. */
  readonly embeddings?: Omit<EmbeddingOptions, 'model'> & { readonly model?: string | undefined; readonly weight?: number };
}

/**
 * The task's cosines with the dist's vectors, or undefined: without --embeddings, or (said on
 * stderr) when the request failed. A dist without vectors, another model or bad options are usage
 * errors (a QueryUsageError).
 */
async function denseScores(task: string, index: GraphIndex, opts: NonNullable<QueryCommandOptions['embeddings']>): Promise<DenseScores | undefined> {
  if (opts.embeddings === 'none') return undefined;
  const meta = index.embeddings;
  if (!meta) throw new QueryUsageError(`${index.dist} has no embeddings: build the library with --embeddings openai first`);
  const model = opts.model ?? meta.model;
  if (model !== meta.model) throw new QueryUsageError(`the embeddings of ${index.dist} are of the model ${meta.model}, not ${model}`);
  // The model client (the openai package, some 200 modules) is loaded only here: a plain query
  // does not pay for it (about 60 ms of a cold query, which has 300 ms in all).
  const [{ embedderFrom, MAX_EMBEDDED_QUERY_CHARS }, { LlmSetupError }, { ModelCallError }] = await Promise.all([
    import('../embed/embeddings.js'),
    import('../llm/setup.js'),
    import('../llm/model-client.js'),
  ]);
  let embedder;
  try {
    // A query's vector is not kept: a query writes nothing.
    embedder = embedderFrom({ ...opts, model, cacheDir: false, timeoutSeconds: opts.timeoutSeconds ?? 30, retries: opts.retries ?? 2 });
  } catch (e) {
    if (e instanceof LlmSetupError) throw new QueryUsageError(e.message);
    throw e;
  }
  if (!embedder) return undefined;
  // Read (and checked against core.json) before the request: a rebuild while it is under way
  // cannot pair this index with another build's vectors, and a damaged file is the dist's problem.
  const vectors = index.denseVectors();
  try {
    const got = await embedder.embed([task.slice(0, MAX_EMBEDDED_QUERY_CHARS)]);
    if (got.dimensions !== meta.dimensions) throw new ModelCallError('empty', `the task's embedding has ${got.dimensions} dimensions, the dist's ${meta.dimensions}`);
    return { cosines: denseCosines(vectors, got.vectors), weight: opts.weight ?? DEFAULT_DENSE_WEIGHT };
  } catch (e) {
    if (!(e instanceof ModelCallError)) throw e;
    process.stderr.write(`skillc query: warning: embedding the task failed (${escapeInline(e.message)}); ranked by text alone\n`);
    return undefined;
  }
}

class QueryUsageError extends Error {}

export async function runQuery(task: string, opts: QueryCommandOptions): Promise<number> {
  let text: string;
  let status: 'ok' | 'NO_SKILL_HIT';
  // An empty task is a mistake in the call (an unset variable in a script), not a task no skill matches.
  if (task.trim() === '') {
    process.stderr.write('skillc query: the task is empty; say in plain words what the agent has to do\n');
    return 2;
  }
  try {
    const retriever = openRetriever(opts.dist);
    const dense = opts.embeddings && !opts.plan ? await denseScores(task, retriever.index, opts.embeddings) : undefined;
    if (opts.plan) {
      const result = await retriever.plan(task, { k: opts.k, budget: opts.budget, foldVersions: opts.foldVersions === true });
      text = opts.format === 'json' ? renderPlanJson(result) : renderPlanMarkdown(result);
      status = result.status;
    } else {
      const result = await retriever.query(task, { k: opts.k, budget: opts.budget, foldVersions: opts.foldVersions === true, ...(dense ? { dense } : {}) });
      text = opts.format === 'json' ? renderQueryJson(result) : renderQueryMarkdown(result);
      status = result.status;
    }
  } catch (err) {
    if (err instanceof IndexError || err instanceof DistReadError || err instanceof QueryUsageError) {
      process.stderr.write(`skillc query: ${escapeInline(err.message)}\n`);
      return 2;
    }
    throw err;
  }
  if (opts.outputFile) {
    try {
      fs.writeFileSync(opts.outputFile, text);
    } catch (err) {
      process.stderr.write(`skillc query: cannot write ${escapeInline(opts.outputFile)}: ${errnoText(err)}\n`);
      return 2;
    }
  } else process.stdout.write(process.stdout.isTTY === true && opts.format === 'md' ? escapeBlock(text) : text);
  return status === 'ok' ? 0 : 1;
}
