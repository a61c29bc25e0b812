/**
 * The one place skillc talks to a model: a chat-completions request through the `openai` client
 * (v6, Node 20) against any OpenAI-compatible server. It asks for structured output with the
 * prompt's JSON Schema and, when the server refuses `json_schema` with a 400, switches to JSON
 * mode for the rest of the build. Retries with backoff on 408/409/429/5xx and on timeouts are the
 * client's own (it honours Retry-After); every HTTP attempt is counted through a fetch wrapper.
 * Failures come back as a ModelCallError with a kind, never as an exception the caller must know.
 *
 * The fetch wrapper (guardedFetch) also bounds what the client alone does not (issue 24 item 3):
 * - the per-attempt time limit covers the whole response: the client's own timer stops once the
 *   headers arrive, so a server that sent headers and half a body, then fell silent, hung the
 *   build; the wrapper reads the body under the same limit and aborts it, which the client then
 *   treats as a timeout (retried, then a 'timeout' failure);
 * - a Retry-After (or retry-after-ms) longer than maxRetryWaitMs is shortened to it: the client
 *   sleeps as long as the server says, so `Retry-After: 100000` slept for 28 hours.
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';

export interface ModelClientOptions {
  readonly model: string;
  /** e.g. http://127.0.0.1:8000/v1; undefined means the client's default (api.openai.com). */
  readonly baseURL?: string;
  readonly apiKey: string;
  /** Per attempt, in milliseconds. */
  readonly timeoutMs: number;
  /** Retries after the first attempt (429, 5xx, timeouts, connection errors). */
  readonly maxRetries: number;
  /** Longest wait a Retry-After may ask for before a retry, in milliseconds (default 60 s). */
  readonly maxRetryWaitMs?: number;
}

export const DEFAULT_MAX_RETRY_WAIT_MS = 60_000;

/** Statuses whose response has no body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * fetch with the whole response (headers and body) under `timeoutMs`, and Retry-After capped at
 * `maxRetryWaitMs`; `count` is called once per attempt.
 */
export function guardedFetch(timeoutMs: number, maxRetryWaitMs: number, count: () => void): typeof fetch {
  return async (input, init) => {
    count();
    const controller = new AbortController();
    const outer = init?.signal;
    const forward = () => controller.abort();
    if (outer?.aborted) forward();
    else outer?.addEventListener('abort', forward, { once: true });
    const timer = setTimeout(forward, timeoutMs);
    try {
      const res = await fetch(input, { ...init, signal: controller.signal });
      // Read here, under the timer: a body that stalls is aborted like a connection that does.
      const body = NULL_BODY.has(res.status) ? null : await res.arrayBuffer();
      const headers = new Headers(res.headers);
      // The body is already decoded; its length and encoding are no longer those of the wire.
      headers.delete('content-encoding');
      headers.delete('content-length');
      const wait = retryAfterMs(headers);
      if (wait !== null && wait > maxRetryWaitMs) {
        headers.delete('retry-after');
        headers.set('retry-after-ms', String(maxRetryWaitMs));
      }
      return new Response(body, { status: res.status, statusText: res.statusText, headers });
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', forward);
    }
  };
}

/** The wait a response asks for (retry-after-ms, or Retry-After in seconds or as a date), or null. */
function retryAfterMs(headers: Headers): number | null {
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms)) return ms;
  const value = headers.get('retry-after');
  if (value === null) return null;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? date - Date.now() : null;
}

export interface ChatRequest {
  readonly system: string;
  readonly user: string;
  readonly schemaName: string;
  readonly schema: Readonly<Record<string, unknown>>;
}

export interface ChatReply {
  readonly content: string;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly mode: 'json_schema' | 'json_object';
}

export type ModelErrorKind = 'auth' | 'not-found' | 'rate-limit' | 'timeout' | 'connection' | 'server' | 'bad-request' | 'refusal' | 'empty';

export class ModelCallError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export class ModelClient {
  private readonly client: OpenAI;
  private jsonSchemaSupported = true;
  /** HTTP attempts made, retries included. */
  attempts = 0;

  constructor(readonly options: ModelClientOptions) {
    this.client = new OpenAI({
      apiKey: options.apiKey,
      ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
      timeout: options.timeoutMs,
      maxRetries: options.maxRetries,
      fetch: guardedFetch(options.timeoutMs, options.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS, () => this.attempts++),
    });
  }

  get model(): string {
    return this.options.model;
  }

  /** Embeddings of `inputs` (at most MAX_EMBED_BATCH), checked (embedOnce); `signal` aborts the request. */
  embed(inputs: readonly string[], signal?: AbortSignal): Promise<EmbedReply> {
    return embedOnce(this.client, this.options.model, inputs, signal);
  }

  async chat(req: ChatRequest): Promise<ChatReply> {
    if (this.jsonSchemaSupported) {
      try {
        return await this.once(req, 'json_schema');
      } catch (e) {
        // A server without structured output answers 400 (or 422) about response_format.
        if (e instanceof ModelCallError && e.kind === 'bad-request' && /response_format|json_schema|schema/i.test(e.message)) this.jsonSchemaSupported = false;
        else throw e;
      }
    }
    return this.once(req, 'json_object');
  }

  private async once(req: ChatRequest, mode: ChatReply['mode']): Promise<ChatReply> {
    const system = mode === 'json_schema' ? req.system : `${req.system}\nThe reply must be one JSON object valid against this JSON Schema:\n${JSON.stringify(req.schema)}`;
    let res: OpenAI.Chat.Completions.ChatCompletion;
    try {
      res = await this.client.chat.completions.create({
        model: this.options.model,
        temperature: 0,
        seed: 1,
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: req.user },
        ],
        response_format: mode === 'json_schema' ? { type: 'json_schema', json_schema: { name: req.schemaName, strict: true, schema: req.schema as Record<string, unknown> } } : { type: 'json_object' },
      });
    } catch (e) {
      throw classify(e);
    }
    const choice = res.choices?.[0];
    const message = choice?.message;
    if (message?.refusal) throw new ModelCallError('refusal', `the model refused: ${message.refusal}`);
    const content = message?.content;
    if (typeof content !== 'string' || content.trim() === '') throw new ModelCallError('empty', `empty reply (finish_reason ${choice?.finish_reason ?? 'none'})`);
    return { content, promptTokens: res.usage?.prompt_tokens ?? 0, completionTokens: res.usage?.completion_tokens ?? 0, mode };
  }
}

/** What an embeddings request gave: one vector per input, in the inputs' order, all of one length. */
export interface EmbedReply {
  readonly vectors: readonly (readonly number[])[];
  readonly promptTokens: number;
}

/** The longest embedding taken from a server (the largest common models give 3,072). */
export const MAX_EMBEDDING_LENGTH = 65_536;

/** The most inputs one embeddings request sends (OpenAI's API takes up to 2,048). */
export const MAX_EMBED_BATCH = 64;

/**
 * One embeddings request (/embeddings) for `inputs`. The reply is checked, never trusted: one
 * vector per input, each placed by its `index`, of finite numbers, all of one length.
 */
async function embedOnce(client: OpenAI, model: string, inputs: readonly string[], signal?: AbortSignal): Promise<EmbedReply> {
  let res: OpenAI.Embeddings.CreateEmbeddingResponse;
  try {
    // Floats, not base64: a local server may know only the plain form.
    res = await client.embeddings.create({ model, input: [...inputs], encoding_format: 'float' }, signal ? { signal } : {});
  } catch (e) {
    throw classify(e);
  }
  const data: unknown = (res as { data?: unknown }).data;
  if (!Array.isArray(data) || data.length !== inputs.length) throw new ModelCallError('empty', `the server gave ${Array.isArray(data) ? data.length : 'no'} embeddings for ${inputs.length} inputs`);
  const vectors: (number[] | undefined)[] = new Array(inputs.length);
  let dimensions = -1;
  for (const [at, item] of data.entries()) {
    const { index, embedding } = (item ?? {}) as { index?: unknown; embedding?: unknown };
    const i = index === undefined ? at : index;
    if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= inputs.length || vectors[i] !== undefined) throw new ModelCallError('empty', `embedding ${at} has no index among the ${inputs.length} inputs, or one given twice`);
    if (!Array.isArray(embedding) || embedding.length === 0 || !embedding.every((x) => typeof x === 'number' && Number.isFinite(x))) throw new ModelCallError('empty', `embedding ${i} is not a list of numbers`);
    if (embedding.length > MAX_EMBEDDING_LENGTH) throw new ModelCallError('empty', `embedding ${i} has ${embedding.length} dimensions, more than ${MAX_EMBEDDING_LENGTH}`);
    if (dimensions >= 0 && embedding.length !== dimensions) throw new ModelCallError('empty', `embeddings of ${dimensions} and ${embedding.length} dimensions in one reply`);
    dimensions = embedding.length;
    vectors[i] = embedding as number[];
  }
  return { vectors: vectors as number[][], promptTokens: res.usage?.prompt_tokens ?? 0 };
}

function classify(e: unknown): ModelCallError {
  if (e instanceof APIConnectionTimeoutError) return new ModelCallError('timeout', 'the request timed out (after retries)');
  if (e instanceof APIConnectionError) return new ModelCallError('connection', `cannot reach the model server: ${e.message}`);
  if (e instanceof APIError) {
    const status = e.status;
    const detail = `HTTP ${status ?? '?'}: ${e.message}`;
    if (status === 401 || status === 403) return new ModelCallError('auth', detail, status);
    if (status === 404) return new ModelCallError('not-found', detail, status);
    if (status === 429) return new ModelCallError('rate-limit', `${detail} (after retries)`, status);
    if (status !== undefined && status >= 500) return new ModelCallError('server', `${detail} (after retries)`, status);
    return new ModelCallError('bad-request', detail, status);
  }
  return new ModelCallError('connection', e instanceof Error ? e.message : String(e));
}
