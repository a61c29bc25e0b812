/**
 * A small OpenAI-compatible HTTP server on loopback, for tests and benchmarks of the model-assisted
 * passes: POST …/chat/completions is answered by a handler that sees each request (and how many
 * came before it) and returns a reply: a chat completion with the given content, an HTTP error
 * status (with headers such as retry-after-ms), or no answer at all (a hanging server). Every
 * request is recorded, so a test can count the calls the real `openai` client made.
 *
 * `echoResponder` answers like a cautious model that agrees with skillc's deterministic results:
 * it returns the deterministic contract draft included in an extraction request, the suggested
 * bindings of each Binding Extraction candidate, and no Rewrite Cleanup edits. Benchmarks use it
 * to count calls without a model.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ChatBody {
  readonly model: string;
  readonly messages: readonly { readonly role: string; readonly content: string }[];
  readonly response_format?: { readonly type: string; readonly json_schema?: { readonly name: string; readonly schema: unknown } };
  readonly temperature?: number;
}

export interface RecordedRequest {
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: ChatBody;
}

export type ServerReply =
  | { readonly kind: 'content'; readonly content: string; readonly promptTokens?: number; readonly completionTokens?: number }
  | { readonly kind: 'status'; readonly status: number; readonly message?: string; readonly headers?: Readonly<Record<string, string>> }
  | { readonly kind: 'hang' }
  /** Status and headers, then the first half of a valid body, then silence (the connection stays open). */
  | { readonly kind: 'half-body'; readonly content: string };

export type Handler = (body: ChatBody, index: number) => ServerReply | Promise<ServerReply>;

export interface OpenAIServer {
  /** Base URL for the client, ending in /v1. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  setHandler(h: Handler): void;
  close(): Promise<void>;
}

export async function startOpenAIServer(handler: Handler = echoResponder): Promise<OpenAIServer> {
  let current = handler;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
          res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}`, type: 'invalid_request_error' } }));
          return;
        }
        let body: ChatBody;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatBody;
        } catch {
          res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'body is not JSON', type: 'invalid_request_error' } }));
          return;
        }
        const index = requests.length;
        requests.push({ path: req.url, authorization: req.headers.authorization, body });
        let reply: ServerReply;
        try {
          reply = await current(body, index);
        } catch (e) {
          reply = { kind: 'status', status: 500, message: `handler failed: ${(e as Error).message}` };
        }
        if (reply.kind === 'hang') return;
        if (reply.kind === 'half-body') {
          const whole = JSON.stringify({ id: `chatcmpl-${index}`, object: 'chat.completion', created: 0, model: body.model, choices: [{ index: 0, message: { role: 'assistant', content: reply.content, refusal: null }, finish_reason: 'stop', logprobs: null }] });
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(whole)) });
          res.write(whole.slice(0, Math.floor(whole.length / 2)));
          return;
        }
        if (reply.kind === 'status') {
          res.writeHead(reply.status, { 'content-type': 'application/json', ...(reply.headers ?? {}) }).end(JSON.stringify({ error: { message: reply.message ?? `status ${reply.status}`, type: 'test_error', code: null } }));
          return;
        }
        const promptTokens = reply.promptTokens ?? Math.ceil(JSON.stringify(body.messages).length / 4);
        const completionTokens = reply.completionTokens ?? Math.ceil(reply.content.length / 4);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
          id: `chatcmpl-${index}`,
          object: 'chat.completion',
          created: 0,
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: reply.content, refusal: null }, finish_reason: 'stop', logprobs: null }],
          usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
        }));
      })();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    setHandler(h) {
      current = h;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Which prompt a request is for: the structured-output schema name, or the one named in JSON mode. */
export function promptOf(body: ChatBody): string {
  const named = body.response_format?.json_schema?.name;
  if (named) return named;
  const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
  if (system.includes('callable contract')) return 'skillc_extract_contract';
  if (system.includes('candidate call-sites')) return 'skillc_bind_call_sites';
  return 'skillc_rewrite_cleanup';
}

export function userOf(body: ChatBody): string {
  return body.messages.find((m) => m.role === 'user')?.content ?? '';
}

export const echoResponder: Handler = (body) => ({ kind: 'content', content: JSON.stringify(echoReply(body)) });

/** The reply `echoResponder` sends, as data (tests change one field of it). */
export function echoReply(body: ChatBody): Record<string, unknown> {
  const user = userOf(body);
  switch (promptOf(body)) {
    case 'skillc_extract_contract': {
      const m = /## Deterministic draft\n\n(`{3,})json\n([\s\S]*?)\n\1/.exec(user);
      if (!m) return { _extraction_failed: true, reason: 'the passages share no action', id: '', trigger: '', input_schema: [], output_schema: [], preconditions: [], postconditions: [], side_effects: [], templates: [], rationale: '' };
      const d = JSON.parse(m[2]!) as Record<string, unknown>;
      return { _extraction_failed: false, reason: '', id: '', rationale: 'kept the draft', ...d };
    }
    case 'skillc_bind_call_sites': {
      const call_sites: unknown[] = [];
      for (const m of user.matchAll(/## Candidate (\d+):[\s\S]*?Suggested bindings: (\{.*?\})(?: \(incomplete|\n)/g)) {
        const bindings = Object.entries(JSON.parse(m[2]!) as Record<string, string>).map(([name, value]) => ({ name, value }));
        call_sites.push({ candidate: m[1], should_invoke: true, confidence: 'high', bindings, rationale: 'the section performs the procedure' });
      }
      return { call_sites };
    }
    default:
      return { edits: [] };
  }
}

/**
 * A misbehaving model for robustness runs, deterministic by request number: malformed JSON, a 400,
 * a schema violation, bindings that are not in the unit, Rewrite Cleanup edits aimed at the first
 * lines of the skill (frontmatter, marker), or otherwise the echo reply.
 */
export const chaosResponder: Handler = (body, index) => {
  const reply = echoReply(body);
  switch (index % 6) {
    case 0:
      return { kind: 'content', content: '{"call_sites": [' };
    case 1:
      return { kind: 'status', status: 400, message: 'bad request' };
    case 2:
      return { kind: 'content', content: JSON.stringify({ unexpected: true }) };
    case 3: {
      if (Array.isArray(reply['call_sites'])) reply['call_sites'] = (reply['call_sites'] as { bindings: { name: string }[] }[]).map((c) => ({ ...c, bindings: c.bindings.map((b) => ({ name: b.name, value: 'not in the unit' })) }));
      if (Array.isArray(reply['edits'])) reply['edits'] = [1, 2, 3, 4, 5].map((line) => ({ line, find: '-', replace: 'invoke(x, {})', rationale: 'chaos' }));
      if (Array.isArray(reply['templates'])) reply['templates'] = ['{a} {b}'];
      return { kind: 'content', content: JSON.stringify(reply) };
    }
    default:
      return { kind: 'content', content: JSON.stringify(reply) };
  }
};
