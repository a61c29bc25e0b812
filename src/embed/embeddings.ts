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
import OpenAI from 'openai';
import type { Parent } from '../ir/types.js';
import { DEFAULT_CACHE_DIR, LlmSetupError } from '../llm/setup.js';
import { DEFAULT_MAX_RETRY_WAIT_MS, embedOnce, guardedFetch, MAX_EMBED_BATCH, ModelCallError } from '../llm/model-client.js';
import { cacheKey, ReplyCache } from '../llm/reply-cache.js';

export const DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small';
/** Characters of a skill's text sent to be embedded: name, description and headings fit in it. */
export const MAX_EMBEDDED_CHARS = 4000;
/** Characters of a query sent to be embedded (a long task instruction is cut there). */
export const MAX_EMBEDDED_QUERY_CHARS = 8000;

export interface EmbeddingOptions {
  readonly embeddings: 'none' | 'openai';
  readonly baseURL?: string;
  readonly model?: string;
  readonly concurrency?: number;
  /** Per attempt, in seconds. */
  readonly timeoutSeconds?: number;
  readonly retries?: number;
  readonly maxRetryWaitSeconds?: number;
  /** Reply cache folder, or false for none. */
  readonly cacheDir?: string | false;
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
  /** Requests made (retries not counted) and texts found in the cache. */
  readonly requests: number;
  readonly cached: number;
}

/** The embedder the options ask for, or undefined for none; a usage error is an LlmSetupError. */
export function embedderFrom(opts: EmbeddingOptions, env: NodeJS.ProcessEnv = process.env): Embedder | undefined {
  if (opts.embeddings === 'none') return undefined;
  const baseURL = opts.baseURL ?? (env.OPENAI_BASE_URL || undefined);
  let apiKey = env.OPENAI_API_KEY;
  if (!apiKey) {
    if (baseURL === undefined) throw new LlmSetupError('--embeddings openai needs OPENAI_API_KEY in the environment, or --embeddings-base-url for a local OpenAI-compatible server');
    apiKey = 'not-needed';
  }
  if (baseURL !== undefined && !/^https?:\/\//.test(baseURL)) throw new LlmSetupError(`--embeddings-base-url must be an http(s) URL, got "${baseURL}"`);
  const timeoutMs = Math.round((opts.timeoutSeconds ?? 60) * 1000);
  const maxRetryWaitMs = opts.maxRetryWaitSeconds !== undefined ? Math.round(opts.maxRetryWaitSeconds * 1000) : DEFAULT_MAX_RETRY_WAIT_MS;
  const client = new OpenAI({
    apiKey,
    ...(baseURL !== undefined ? { baseURL } : {}),
    timeout: timeoutMs,
    maxRetries: opts.retries ?? 3,
    fetch: guardedFetch(timeoutMs, maxRetryWaitMs, () => {}),
  });
  const model = opts.model ?? DEFAULT_EMBEDDING_MODEL;
  const cache = new ReplyCache(opts.cacheDir === false ? null : path.resolve(opts.cacheDir ?? DEFAULT_CACHE_DIR));
  const concurrency = Math.max(1, opts.concurrency ?? 4);
  return { model, embed: (texts) => embedTexts((batch) => embedOnce(client, model, batch), model, cache, texts, concurrency) };
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

/** A kept vector: a non-empty list of finite numbers. */
function keptVector(content: string): number[] | undefined {
  try {
    const v = JSON.parse(content) as unknown;
    return Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'number' && Number.isFinite(x)) ? (v as number[]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Vectors of `texts` through `request` (one call per batch of MAX_EMBED_BATCH texts the cache
 * lacks, `concurrency` at once), normalised. Equal texts are asked once.
 */
export async function embedTexts(
  request: (batch: readonly string[]) => Promise<{ readonly vectors: readonly (readonly number[])[] }>,
  model: string,
  cache: ReplyCache,
  texts: readonly string[],
  concurrency: number,
): Promise<EmbeddedTexts> {
  const byText = new Map<string, readonly number[]>();
  let cached = 0;
  const missing: string[] = [];
  for (const t of new Set(texts)) {
    const entry = cache.get(keyOf(model, t));
    const v = entry && entry.model === model ? keptVector(entry.content) : undefined;
    if (v) {
      byText.set(t, v);
      cached++;
    } else missing.push(t);
  }
  const batches: string[][] = [];
  for (let i = 0; i < missing.length; i += MAX_EMBED_BATCH) batches.push(missing.slice(i, i + MAX_EMBED_BATCH));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const batch = batches[next++]!;
      const reply = await request(batch);
      batch.forEach((t, i) => {
        const v = reply.vectors[i]!;
        byText.set(t, v);
        cache.put({ key: keyOf(model, t), model, prompt: 'embeddings', content: JSON.stringify(v), promptTokens: 0, completionTokens: 0 });
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, batches.length) }, worker));
  const dimensions = texts.length === 0 ? 0 : byText.get(texts[0]!)!.length;
  const vectors = new Float32Array(texts.length * dimensions);
  texts.forEach((t, row) => {
    const v = byText.get(t)!;
    if (v.length !== dimensions) throw new ModelCallError('empty', `embeddings of ${dimensions} and ${v.length} dimensions for one library (a cache of another model under this name?)`);
    let norm = 0;
    for (const x of v) norm += x * x;
    norm = Math.sqrt(norm) || 1;
    for (let j = 0; j < dimensions; j++) vectors[row * dimensions + j] = v[j]! / norm;
  });
  return { dimensions, vectors, requests: batches.length, cached };
}
