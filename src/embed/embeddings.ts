/**
 * Dense embeddings of the skills from an OpenAI-compatible /embeddings endpoint (issue 21's
 * optional `--embeddings openai`): the query mixes their cosine with its lexical seeds, so that a
 * task worded unlike any skill can still find one. Off by default; the default build and query stay
 * offline.
 *
 * What is embedded per skill is its name, description and headings (skillEmbeddingText): what a
 * skill is for, not its whole body, which is long, code-heavy and costly to send. Every vector is
 * kept in the model reply cache by (model, text), so a rebuild embeds only the skills whose text
 * changed; vectors are stored L2-normalised, so a cosine is a dot product. A request that fails
 * after the client's retries leaves the dist without embeddings (one SKC700 warning): vectors for
 * some skills and not others would rank the rest below them for no reason of theirs.
 */
import path from 'node:path';
import type { Parent } from '../ir/types.js';
import { modelClientOf, replyCacheOf, type EndpointOptions } from '../llm/setup.js';
import { MAX_EMBED_BATCH, MAX_EMBEDDING_LENGTH, ModelCallError } from '../llm/model-client.js';
import { cacheKey, ReplyCache } from '../llm/reply-cache.js';
import { MAX_EMBEDDINGS_BYTES } from '../graph/query-index.js';

export const DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small';
/** Characters of a skill's text sent to be embedded: name, description and headings fit in it. */
export const MAX_EMBEDDED_CHARS = 4000;
/** Characters of a query sent to be embedded (a long task instruction is cut there). */
export const MAX_EMBEDDED_QUERY_CHARS = 8000;

export interface EmbeddingOptions extends EndpointOptions {
  readonly embeddings: 'none' | 'openai';
}

/** An embeddings endpoint as the options name it. */
export interface Embedder {
  readonly model: string;
  /** Vectors of `texts` (L2-normalised), from the cache where it has them; throws ModelCallError. */
  embed(texts: readonly string[]): Promise<EmbeddedTexts>;
}

export interface EmbeddedTexts {
  readonly dimensions: number;
  /** Row i is texts[i]'s vector. */
  readonly vectors: Float32Array;
  /** Requests made (retries not counted). */
  readonly requests: number;
}

/** The embedder the options ask for, or undefined for none; a usage error is an LlmSetupError (modelClientOf). */
export function embedderFrom(opts: EmbeddingOptions, env: NodeJS.ProcessEnv = process.env): Embedder | undefined {
  if (opts.embeddings === 'none') return undefined;
  const client = modelClientOf('--embeddings', opts, DEFAULT_EMBEDDING_MODEL, env);
  const cache = replyCacheOf(opts);
  const concurrency = Math.max(1, opts.concurrency ?? 4);
  return { model: client.model, embed: (texts) => embedTexts((batch, signal) => client.embed(batch, signal), client.model, cache, texts, concurrency) };
}

/** The text embedded for a skill: its name, description and headings, at most MAX_EMBEDDED_CHARS. */
export function skillEmbeddingText(p: Parent): string {
  const field = (k: string) => {
    const v = p.frontmatter.data?.[k];
    return typeof v === 'string' ? v.trim() : '';
  };
  const name = field('name') || path.posix.basename(p.path);
  const headings = p.units.flatMap((u) => (u.heading ? [u.heading] : []));
  return [`${name}: ${field('description')}`, ...headings].join('\n').slice(0, MAX_EMBEDDED_CHARS);
}

function keyOf(model: string, text: string): string {
  return cacheKey({ model, prompt: 'embeddings', version: 1, system: '', schema: null, user: text });
}

/** A kept vector: a non-empty list of finite numbers, at most MAX_EMBEDDING_LENGTH long. */
function keptVector(content: string): number[] | undefined {
  try {
    const v = JSON.parse(content) as unknown;
    return Array.isArray(v) && v.length > 0 && v.length <= MAX_EMBEDDING_LENGTH && v.every((x) => typeof x === 'number' && Number.isFinite(x)) ? (v as number[]) : undefined;
  } catch {
    return undefined;
  }
}

/** One request for a batch of texts; `signal` aborts it (another batch failed). */
export type EmbedRequest = (batch: readonly string[], signal: AbortSignal) => Promise<{ readonly vectors: readonly (readonly number[])[] }>;

/**
 * Vectors of `texts` through `request` (one call per batch of MAX_EMBED_BATCH texts the cache
 * lacks, `concurrency` at once), normalised. Equal texts are asked once. The server's vectors are
 * the measure: a batch of another length than its first fails the whole (nothing more is asked,
 * and requests in flight are aborted), and kept vectors of another length than the server's now,
 * or than each other's when the cache had them all, are asked again. A failure is a ModelCallError.
 */
export async function embedTexts(request: EmbedRequest, model: string, cache: ReplyCache, texts: readonly string[], concurrency: number): Promise<EmbeddedTexts> {
  const distinct = [...new Set(texts)];
  const kept = new Map<string, readonly number[]>();
  for (const t of distinct) {
    const entry = cache.get(keyOf(model, t));
    const v = entry && entry.model === model ? keptVector(entry.content) : undefined;
    if (v) kept.set(t, v);
  }
  const fresh = new Map<string, readonly number[]>();
  /** The server's vector length, from its first reply. */
  let dimensions: number | undefined;
  let requests = 0;
  const ask = async (pending: readonly string[]): Promise<void> => {
    const batches: string[][] = [];
    for (let i = 0; i < pending.length; i += MAX_EMBED_BATCH) batches.push(pending.slice(i, i + MAX_EMBED_BATCH));
    const controller = new AbortController();
    let failure: unknown;
    const fail = (e: unknown) => {
      failure ??= e;
      controller.abort();
    };
    let next = 0;
    const worker = async () => {
      while (failure === undefined && next < batches.length) {
        const batch = batches[next++]!;
        requests++;
        let reply: { readonly vectors: readonly (readonly number[])[] };
        try {
          reply = await request(batch, controller.signal);
        } catch (e) {
          return fail(e);
        }
        if (failure !== undefined) return;
        const length = reply.vectors[0]!.length;
        dimensions ??= length;
        if (length !== dimensions) return fail(new ModelCallError('empty', `the server gave embeddings of ${dimensions} and of ${length} dimensions`));
        batch.forEach((t, i) => {
          const v = reply.vectors[i]!;
          fresh.set(t, v);
          cache.put({ key: keyOf(model, t), model, prompt: 'embeddings', content: JSON.stringify(v), promptTokens: 0, completionTokens: 0 });
        });
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, batches.length) }, worker));
    if (failure !== undefined) throw failure;
  };
  await ask(distinct.filter((t) => !kept.has(t)));
  if (dimensions !== undefined) await ask([...kept].filter(([, v]) => v.length !== dimensions).map(([t]) => t));
  else if (new Set([...kept.values()].map((v) => v.length)).size > 1) await ask([...kept.keys()]);
  const vectorOf = (t: string) => fresh.get(t) ?? kept.get(t)!;
  const length = texts.length === 0 ? 0 : vectorOf(texts[0]!).length;
  if (texts.length * length * 4 > MAX_EMBEDDINGS_BYTES) throw new ModelCallError('empty', `${texts.length} vectors of ${length} dimensions take more than ${MAX_EMBEDDINGS_BYTES} bytes`);
  const vectors = new Float32Array(texts.length * length);
  texts.forEach((t, row) => {
    const v = vectorOf(t);
    if (v.length !== length) throw new ModelCallError('empty', `embeddings of ${length} and of ${v.length} dimensions for one library`);
    // Scaled by the largest component first: squares of components near 1e300 would overflow.
    let top = 0;
    for (const x of v) top = Math.max(top, Math.abs(x));
    let norm = 0;
    for (const x of v) norm += (x / (top || 1)) ** 2;
    const scale = (top || 1) * (Math.sqrt(norm) || 1);
    for (let j = 0; j < length; j++) vectors[row * length + j] = v[j]! / scale;
  });
  return { dimensions: length, vectors, requests };
}
