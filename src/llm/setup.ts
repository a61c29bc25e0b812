/**
 * From command-line options to a model service (SPEC §3): `--llm openai`, `--llm-base-url`
 * (default $OPENAI_BASE_URL, else the OpenAI API), `--model` (default gpt-4o-mini), the key from
 * OPENAI_API_KEY. A local OpenAI-compatible server usually needs no key, so a placeholder is sent
 * when a base URL is given without one; the OpenAI API itself without a key is a usage error.
 */
import path from 'node:path';
import { ModelClient } from './model-client.js';
import { createModelService, type ModelService } from './model-service.js';
import { ReplyCache } from './reply-cache.js';

export const DEFAULT_MODEL = 'gpt-4o-mini';
export const DEFAULT_CACHE_DIR = '.skillc-cache';

/** How an OpenAI-compatible server is reached and how its requests are bounded (--llm and --embeddings alike). */
export interface EndpointOptions {
  readonly baseURL?: string;
  readonly model?: string;
  /** Concurrent requests. */
  readonly concurrency?: number;
  /** Per attempt, in seconds. */
  readonly timeoutSeconds?: number;
  readonly retries?: number;
  /** Longest wait a Retry-After may impose before a retry, in seconds (default 60). */
  readonly maxRetryWaitSeconds?: number;
  /** Reply cache folder, or false for none. */
  readonly cacheDir?: string | false;
}

export interface LlmOptions extends EndpointOptions {
  readonly llm: 'none' | 'openai';
}

export class LlmSetupError extends Error {}

/**
 * The client of the server the options name (--llm and --embeddings alike): its URL is the option,
 * else $OPENAI_BASE_URL, else the client's default; its key OPENAI_API_KEY, or a placeholder for a
 * local server, which usually needs none. `what` names the option that asked for it (`--llm`),
 * whose URL flag is `<what>-base-url`.
 */
export function modelClientOf(what: string, opts: EndpointOptions, defaultModel: string, env: NodeJS.ProcessEnv): ModelClient {
  const baseURL = opts.baseURL ?? (env.OPENAI_BASE_URL || undefined);
  let apiKey = env.OPENAI_API_KEY;
  if (!apiKey) {
    if (baseURL === undefined) throw new LlmSetupError(`${what} openai needs OPENAI_API_KEY in the environment, or ${what}-base-url for a local OpenAI-compatible server`);
    apiKey = 'not-needed';
  }
  if (baseURL !== undefined && !/^https?:\/\//.test(baseURL)) throw new LlmSetupError(`${opts.baseURL !== undefined ? `${what}-base-url` : '$OPENAI_BASE_URL'} must be an http(s) URL, got "${baseURL}"`);
  return new ModelClient({
    model: opts.model ?? defaultModel,
    ...(baseURL !== undefined ? { baseURL } : {}),
    apiKey,
    timeoutMs: Math.round((opts.timeoutSeconds ?? 60) * 1000),
    maxRetries: opts.retries ?? 3,
    ...(opts.maxRetryWaitSeconds !== undefined ? { maxRetryWaitMs: Math.round(opts.maxRetryWaitSeconds * 1000) } : {}),
  });
}

/** The model reply cache the options name (default DEFAULT_CACHE_DIR; false: none). */
export function replyCacheOf(opts: EndpointOptions): ReplyCache {
  return new ReplyCache(opts.cacheDir === false ? null : path.resolve(opts.cacheDir ?? DEFAULT_CACHE_DIR));
}

export function modelServiceFrom(opts: LlmOptions, env: NodeJS.ProcessEnv = process.env): ModelService | undefined {
  if (opts.llm === 'none') return undefined;
  return createModelService(modelClientOf('--llm', opts, DEFAULT_MODEL, env), replyCacheOf(opts), opts.concurrency ?? 4);
}
