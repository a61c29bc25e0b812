/**
 * The model service with the real `openai` client against a loopback OpenAI-compatible server:
 * valid replies, malformed JSON, schema violations, 429 then success, a hanging server, an
 * authentication failure, a server without structured output, and the reply cache.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ModelClient } from '../../src/llm/model-client.js';
import { createModelService, type ModelService } from '../../src/llm/model-service.js';
import { ReplyCache } from '../../src/llm/reply-cache.js';
import { CLEANUP_PROMPT } from '../../src/llm/prompts/rewrite-cleanup.js';
import { startOpenAIServer, type OpenAIServer } from '../../bench/openai-server.js';
import { scratchDir } from '../helpers/tmp.js';
import { validateAgainst } from '../../src/schema/validate.js';

let server: OpenAIServer;
beforeAll(async () => {
  server = await startOpenAIServer();
});
afterAll(() => server.close());

let cacheRoot: string;
let n = 0;
beforeEach(() => {
  cacheRoot = path.join(scratchDir('llm-cache'), String(n++));
});

function service(opts: { timeoutMs?: number; retries?: number; cache?: boolean; concurrency?: number; maxRetryWaitMs?: number } = {}): ModelService {
  const client = new ModelClient({ model: 'test-model', baseURL: server.url, apiKey: 'k', timeoutMs: opts.timeoutMs ?? 5000, maxRetries: opts.retries ?? 2, ...(opts.maxRetryWaitMs !== undefined ? { maxRetryWaitMs: opts.maxRetryWaitMs } : {}) });
  return createModelService(client, new ReplyCache(opts.cache === false ? null : cacheRoot), opts.concurrency ?? 2);
}

const ask = (s: ModelService, user = 'hello') => s.ask({ prompt: CLEANUP_PROMPT, user });
const EMPTY = JSON.stringify({ edits: [] });

describe('model service over the real openai client', () => {
  it('sends a temperature-0 structured-output request and returns the validated reply', async () => {
    server.setHandler(() => ({ kind: 'content', content: EMPTY, promptTokens: 11, completionTokens: 3 }));
    const before = server.requests.length;
    const s = service();
    const a = await ask(s);
    expect(a.ok && a.reply).toEqual({ edits: [] });
    const req = server.requests[before]!;
    expect(req.body.temperature).toBe(0);
    expect(req.body.model).toBe('test-model');
    expect(req.body.response_format?.type).toBe('json_schema');
    expect(req.body.response_format?.json_schema?.name).toBe(CLEANUP_PROMPT.name);
    expect(req.authorization).toBe('Bearer k');
    expect(s.usage().passes['rewrite']).toMatchObject({ requests: 1, calls: 1, cacheHits: 0, promptTokens: 11, completionTokens: 3 });
  });

  it('answers a repeated request from the cache without calling', async () => {
    server.setHandler(() => ({ kind: 'content', content: EMPTY }));
    await ask(service(), 'same request');
    const before = server.requests.length;
    const s = service();
    const a = await ask(s, 'same request');
    expect(a.ok && a.cached).toBe(true);
    expect(server.requests.length).toBe(before);
    expect(s.usage().passes['rewrite']).toMatchObject({ requests: 1, calls: 0, cacheHits: 1 });
    // A different request misses.
    await ask(s, 'another request');
    expect(server.requests.length).toBe(before + 1);
  });

  it('rejects malformed JSON and does not cache it', async () => {
    server.setHandler(() => ({ kind: 'content', content: '{"edits": [' }));
    const a = await ask(service(), 'malformed');
    expect(a.ok).toBe(false);
    expect(!a.ok && a.kind).toBe('invalid');
    expect(!a.ok && a.message).toMatch(/not JSON/);
    const before = server.requests.length;
    server.setHandler(() => ({ kind: 'content', content: EMPTY }));
    const again = await ask(service(), 'malformed');
    expect(again.ok).toBe(true);
    expect(server.requests.length).toBe(before + 1);
  });

  it('rejects a reply that violates the schema and does not cache it; the next build asks again', async () => {
    server.setHandler(() => ({ kind: 'content', content: JSON.stringify({ edits: [{ line: 0, find: 'x' }] }) }));
    const a = await ask(service(), 'schema');
    expect(!a.ok && a.kind).toBe('invalid');
    expect(!a.ok && a.message).toMatch(/violates the skillc_rewrite_cleanup schema/);
    const before = server.requests.length;
    server.setHandler(() => ({ kind: 'content', content: EMPTY }));
    const b = await ask(service(), 'schema');
    expect(b.ok).toBe(true);
    expect(server.requests.length).toBe(before + 1);
  });

  it('judges a cached reply again on every read, and asks again when it fails', async () => {
    server.setHandler(() => ({ kind: 'content', content: EMPTY }));
    expect((await ask(service(), 'kept')).ok).toBe(true);
    // The entry edited on disk to break the schema (another version of skillc, a hand edit).
    const files = fs.readdirSync(cacheRoot, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.json'));
    expect(files).toHaveLength(1);
    const file = path.join(files[0]!.parentPath, files[0]!.name);
    const entry = JSON.parse(fs.readFileSync(file, 'utf8')) as { content: string };
    fs.writeFileSync(file, JSON.stringify({ ...entry, content: JSON.stringify({ edits: [{ line: 0 }] }) }));
    // An entry that no longer passes (written by an older skillc that cached such replies, or
    // edited) is a miss: the model is asked again and the new reply replaces it.
    const before = server.requests.length;
    const b = await ask(service(), 'kept');
    expect(b.ok).toBe(true);
    expect(server.requests.length).toBe(before + 1);
    expect((JSON.parse(fs.readFileSync(file, 'utf8')) as { content: string }).content).toBe(EMPTY);
    const c = await ask(service(), 'kept');
    expect(c.ok && c.cached).toBe(true);
    expect(server.requests.length).toBe(before + 1);
  });

  it('retries after 429 (honouring retry-after-ms) and then succeeds', async () => {
    let answered = 0;
    server.setHandler(() => (answered++ === 0 ? { kind: 'status', status: 429, message: 'slow down', headers: { 'retry-after-ms': '20' } } : { kind: 'content', content: EMPTY }));
    const before = server.requests.length;
    const s = service({ cache: false });
    const a = await ask(s, '429');
    expect(a.ok).toBe(true);
    expect(server.requests.length - before).toBe(2);
    expect(s.usage()).toMatchObject({ attempts: 2 });
    expect(s.usage().passes['rewrite']).toMatchObject({ calls: 1, failed: 0 });
  });

  it('times out a server that sends headers and half a body, then falls silent (issue 24 item 3)', async () => {
    server.setHandler(() => ({ kind: 'half-body', content: EMPTY }));
    const before = server.requests.length;
    const t0 = Date.now();
    const a = await ask(service({ timeoutMs: 300, retries: 1, cache: false }), 'half body');
    expect(!a.ok && a.kind).toBe('failed');
    expect(!a.ok && a.message).toMatch(/timed out/);
    expect(server.requests.length - before).toBe(2);
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('caps the wait a Retry-After asks for, and counts the attempt', async () => {
    const asks: Record<string, string>[] = [{ 'retry-after': '100000' }, { 'retry-after-ms': '100000000' }, { 'retry-after': new Date(Date.now() + 86_400_000).toUTCString() }];
    for (const headers of asks) {
      let answered = 0;
      server.setHandler(() => (answered++ === 0 ? { kind: 'status', status: 429, message: 'come back tomorrow', headers } : { kind: 'content', content: EMPTY }));
      const s = service({ cache: false, maxRetryWaitMs: 200 });
      const t0 = Date.now();
      const a = await ask(s, `retry-after ${JSON.stringify(headers)}`);
      expect(a.ok, JSON.stringify(headers)).toBe(true);
      expect(Date.now() - t0).toBeLessThan(3000);
      expect(s.usage()).toMatchObject({ attempts: 2 });
    }
  });

  it('gives up on a hanging server after the timeout and its retries', async () => {
    server.setHandler(() => ({ kind: 'hang' }));
    const before = server.requests.length;
    const t0 = Date.now();
    const a = await ask(service({ timeoutMs: 150, retries: 1, cache: false }), 'hang');
    expect(!a.ok && a.kind).toBe('failed');
    expect(!a.ok && a.message).toMatch(/timed out/);
    expect(server.requests.length - before).toBe(2);
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('gives up on a server after three requests in a row time out', async () => {
    server.setHandler(() => ({ kind: 'hang' }));
    const before = server.requests.length;
    const s = service({ timeoutMs: 100, retries: 0, cache: false, concurrency: 1 });
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await ask(s, `dead ${i}`));
    expect(answers.every((a) => !a.ok && a.kind === 'failed')).toBe(true);
    expect(server.requests.length - before).toBe(3);
    expect(!answers[5]!.ok && answers[5]!.message).toMatch(/3 requests in a row failed this way, so no more are sent/);
  });

  it('a server slow for its first attempts (a local model loading) is used once it answers', async () => {
    let n = 0;
    server.setHandler(() => (n++ < 3 ? { kind: 'hang' } : { kind: 'content', content: EMPTY }));
    const s = service({ timeoutMs: 200, retries: 3, cache: false, concurrency: 1 });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await ask(s, `warming ${i}`));
    // Three attempts timed out, then the first request's fourth was answered, and so were the others.
    expect(answers.map((a) => a.ok)).toEqual([true, true, true]);
  });

  it('stops calling after an authentication error', async () => {
    server.setHandler(() => ({ kind: 'status', status: 401, message: 'bad key' }));
    const before = server.requests.length;
    const s = service({ concurrency: 1 });
    const a = await ask(s, 'auth 1');
    const b = await ask(s, 'auth 2');
    expect(!a.ok && a.message).toMatch(/401/);
    expect(!b.ok && b.message).toMatch(/401/);
    expect(server.requests.length - before).toBe(1);
    expect(s.usage().passes['rewrite']).toMatchObject({ requests: 2, calls: 1, failed: 2 });
  });

  it('stops calling after 404 (unknown model), without retrying it', async () => {
    server.setHandler(() => ({ kind: 'status', status: 404, message: 'The model `nope` does not exist' }));
    const before = server.requests.length;
    const s = service({ concurrency: 1 });
    const a = await ask(s, '404 1');
    const b = await ask(s, '404 2');
    expect(!a.ok && a.message).toMatch(/404.*does not exist/);
    expect(!b.ok && b.kind).toBe('failed');
    expect(server.requests.length - before).toBe(1);
  });

  it('falls back to JSON mode when the server refuses json_schema', async () => {
    server.setHandler((body) => (body.response_format?.type === 'json_schema' ? { kind: 'status', status: 400, message: "response_format type 'json_schema' is not supported" } : { kind: 'content', content: EMPTY }));
    const before = server.requests.length;
    const s = service({ cache: false });
    expect((await ask(s, 'mode 1')).ok).toBe(true);
    expect((await ask(s, 'mode 2')).ok).toBe(true);
    const types = server.requests.slice(before).map((r) => r.body.response_format?.type);
    // One refused structured request, then JSON mode for the rest of the build.
    expect(types).toEqual(['json_schema', 'json_object', 'json_object']);
    expect(server.requests[before + 1]!.body.messages[0]!.content).toMatch(/JSON Schema/);
  });

  it('bounds the requests in flight', async () => {
    let inFlight = 0;
    let most = 0;
    server.setHandler(async () => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 30));
      inFlight--;
      return { kind: 'content', content: EMPTY };
    });
    const s = service({ concurrency: 3, cache: false });
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => ask(s, `parallel ${i}`)));
    expect(answers.every((a) => a.ok)).toBe(true);
    expect(most).toBe(3);
  });

  it('writes cache entries atomically under llm/<xx>/<key>.json', async () => {
    server.setHandler(() => ({ kind: 'content', content: EMPTY }));
    const a = await ask(service(), 'layout');
    expect(a.ok).toBe(true);
    const file = path.join(cacheRoot, 'llm', a.cacheKey.slice(0, 2), `${a.cacheKey}.json`);
    const entry: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(entry).toMatchObject({ key: a.cacheKey, model: 'test-model', content: EMPTY, prompt: `${CLEANUP_PROMPT.name}@${CLEANUP_PROMPT.version}` });
    expect(validateAgainst('llm-cache-entry', entry).errors).toEqual([]);
    expect(fs.readdirSync(path.dirname(file)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
