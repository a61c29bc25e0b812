/**
 * What the model-assisted passes see of a model: `ask(prompt, user)` returns a reply that parsed
 * as JSON and validated against the prompt's schema, or says why there is none. Behind it: the
 * reply cache, a bound on concurrent requests, the client's timeouts and retries, and per-pass
 * usage counts for the report. After an authentication or not-found error (a wrong key, URL or
 * model name), or after UNREACHABLE_LIMIT requests in a row that timed out or could not connect
 * even with retries (a dead or hanging server), every later request fails at once with that
 * message instead of calling again: a build against a dead server ends in seconds, not hours.
 * The passes stay deterministic functions of the IR and the replies: concurrency only changes
 * when a reply arrives, and callers order results by their input.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { PromptSpec } from './prompt.js';
import { ModelCallError, type ChatReply, type ChatRequest } from './model-client.js';
import { cacheKey, type ReplyCache } from './reply-cache.js';

/** Requests in a row that time out or cannot connect (after their retries) before the server is given up. */
export const UNREACHABLE_LIMIT = 3;

export interface ModelAsk<R> {
  readonly prompt: PromptSpec<R>;
  readonly user: string;
}

export type ModelAnswer<R> =
  | { readonly ok: true; readonly reply: R; readonly cacheKey: string; readonly cached: boolean }
  | { readonly ok: false; readonly kind: 'failed' | 'invalid'; readonly message: string; readonly cacheKey: string };

export interface PassUsage {
  /** Requests the pass made (each answered from the cache or by a call). */
  requests: number;
  cacheHits: number;
  /** Requests sent to the server (retries not counted; see `attempts`). */
  calls: number;
  /** Tokens the server reported for this build's calls (cached replies cost nothing). */
  promptTokens: number;
  completionTokens: number;
  /** Requests with no usable reply: transport failures, and replies that are not JSON or violate the schema. */
  failed: number;
  invalid: number;
}

export interface ModelUsage {
  readonly model: string;
  readonly baseURL: string | null;
  /** HTTP attempts, retries included. */
  readonly attempts: number;
  readonly passes: Readonly<Record<string, PassUsage>>;
}

export interface ModelService {
  readonly model: string;
  ask<R>(a: ModelAsk<R>): Promise<ModelAnswer<R>>;
  usage(): ModelUsage;
}

/** The part of ModelClient the service needs (tests may pass another implementation). */
export interface ChatClient {
  readonly model: string;
  readonly attempts: number;
  readonly options: { readonly baseURL?: string };
  chat(req: ChatRequest): Promise<ChatReply>;
}

export function createModelService(client: ChatClient, cache: ReplyCache, concurrency: number): ModelService {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
  const validators = new Map<string, ValidateFunction>();
  const passes: Record<string, PassUsage> = {};
  let fatal: ModelCallError | undefined;
  let unreachableInARow = 0;
  let active = 0;
  const waiting: (() => void)[] = [];

  const acquire = async () => {
    if (active >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
  };
  const release = () => {
    active--;
    waiting.shift()?.();
  };

  /** Parses and validates a reply. */
  function check<R>(prompt: PromptSpec<R>, content: string): { ok: true; reply: R } | { ok: false; message: string } {
    let data: unknown;
    try {
      data = JSON.parse(content);
    } catch (e) {
      return { ok: false, message: `the reply is not JSON (${(e as Error).message}): ${JSON.stringify(content.slice(0, 80))}` };
    }
    let v = validators.get(prompt.name);
    if (!v) validators.set(prompt.name, (v = ajv.compile(prompt.schema)));
    if (!v(data)) return { ok: false, message: `the reply violates the ${prompt.name} schema: ${(v.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`).join('; ')}` };
    return { ok: true, reply: data as R };
  }

  return {
    model: client.model,
    async ask<R>({ prompt, user }: ModelAsk<R>): Promise<ModelAnswer<R>> {
      const u = (passes[prompt.pass] ??= { requests: 0, cacheHits: 0, calls: 0, promptTokens: 0, completionTokens: 0, failed: 0, invalid: 0 });
      u.requests++;
      const key = cacheKey({ model: client.model, prompt: prompt.name, version: prompt.version, system: prompt.system, schema: prompt.schema, user });
      // A cached reply is judged on every read; one that fails (an older skillc cached such replies,
      // or the file was edited) is a miss, and the new reply replaces it.
      const stored = cache.get(key);
      const fromCache = stored ? check(prompt, stored.content) : undefined;
      let checked: ReturnType<typeof check<R>>;
      if (fromCache?.ok) {
        u.cacheHits++;
        checked = fromCache;
      } else {
        await acquire();
        let reply: ChatReply;
        try {
          // Checked once a slot is free: an earlier request may have hit a fatal error meanwhile.
          if (fatal) {
            u.failed++;
            return { ok: false, kind: 'failed', message: fatal.message, cacheKey: key };
          }
          u.calls++;
          reply = await client.chat({ system: prompt.system, user, schemaName: prompt.name, schema: prompt.schema });
        } catch (e) {
          u.failed++;
          const err = e instanceof ModelCallError ? e : new ModelCallError('connection', e instanceof Error ? e.message : String(e));
          if (err.kind === 'auth' || err.kind === 'not-found') fatal ??= err;
          if (err.kind === 'timeout' || err.kind === 'connection') {
            if (++unreachableInARow >= UNREACHABLE_LIMIT) fatal ??= new ModelCallError(err.kind, `${err.message}; ${unreachableInARow} requests in a row failed this way, so no more are sent`);
          }
          return { ok: false, kind: 'failed', message: err.message, cacheKey: key };
        } finally {
          release();
        }
        unreachableInARow = 0;
        u.promptTokens += reply.promptTokens;
        u.completionTokens += reply.completionTokens;
        checked = check(prompt, reply.content);
        // Only an answer is kept: a reply that is not JSON or breaks the schema (a server's error
        // page, a model's slip) would be served to every later build as if it were one.
        if (checked.ok) cache.put({ key, model: client.model, prompt: `${prompt.name}@${prompt.version}`, content: reply.content, promptTokens: reply.promptTokens, completionTokens: reply.completionTokens });
      }
      if (!checked.ok) {
        u.invalid++;
        return { ok: false, kind: 'invalid', message: checked.message, cacheKey: key };
      }
      return { ok: true, reply: checked.reply, cacheKey: key, cached: fromCache?.ok === true };
    },
    usage: () => ({ model: client.model, baseURL: client.options.baseURL ?? null, attempts: client.attempts, passes: structuredClone(passes) }),
  };
}
