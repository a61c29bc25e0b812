/**
 * `--embeddings openai` (issue 21's optional dense seeds) end to end, with the real `openai` client
 * against an OpenAI-compatible /embeddings endpoint the test runs on loopback. Its model is a toy
 * with one dimension per topic, each named by a few words, so a task whose words lead the text
 * ranking elsewhere ("… save the file": pcap-capture) has a vector near the right skill
 * (image-resize, "photograph" against its "photos"). Covers: the vectors
 * in the dist and their cache (a rebuild makes no request), the query mixing them in, a failing
 * endpoint at build time (SKC700, no vectors, the build goes on) and at query time (a warning, the
 * text ranking), and the usage errors (no vectors in the dist, another model).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCommand } from '../../src/cli/build-command.js';
import { embedderFrom, embedTexts } from '../../src/embed/embeddings.js';
import { ReplyCache } from '../../src/llm/reply-cache.js';
import { ModelCallError } from '../../src/llm/model-client.js';
import { validateAgainst } from '../../src/schema/validate.js';
import type { Diagnostic } from '../../src/ir/diagnostics.js';
import { ROOT, skillcAsync } from '../helpers/cli.js';
import { scratchDir } from '../helpers/tmp.js';

const FIXTURE = path.join(ROOT, 'test/fixtures/retrieval');
const TOPICS = [
  ['image', 'photo', 'photograph', 'picture', 'thumbnail', 'resize', 'imagemagick'],
  ['packet', 'pcap', 'tcpdump', 'traffic', 'network', 'interface'],
  ['intrusion', 'scan', 'threat', 'suspicious', 'beaconing', 'attack'],
  ['release', 'version', 'changelog', 'notes', 'tag'],
  ['csv', 'table', 'column', 'totals', 'report', 'spreadsheet'],
];

/** The toy model: per topic, how many of its words the text holds, plus a small constant. */
function toyVector(text: string): number[] {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return [...TOPICS.map((topic) => words.filter((w) => topic.some((t) => w.startsWith(t))).length), 0.05];
}

/** How the toy server answers: well, or one way a server can be wrong. */
type Mode = 'ok' | 'short' | 'duplicate' | 'out-of-range' | 'not-number' | 'mixed' | 'long';

interface EmbeddingServer {
  readonly url: string;
  readonly inputs: string[][];
  failing: boolean;
  mode: Mode;
  close(): void;
}

function reply(input: string[], mode: Mode): unknown[] {
  const data = input.map((t, index) => ({ object: 'embedding', index, embedding: toyVector(t) as unknown[] }));
  if (mode === 'short') data.pop();
  if (mode === 'duplicate' && data.length > 1) data[1]!.index = 0;
  if (mode === 'out-of-range') data[0]!.index = input.length;
  if (mode === 'not-number') data[0]!.embedding[0] = 'x';
  if (mode === 'mixed' && data.length > 1) data[1]!.embedding.push(0.5);
  if (mode === 'long') data[0]!.embedding = new Array(65_537).fill(0.1);
  return data;
}

async function startEmbeddingServer(): Promise<EmbeddingServer> {
  const state = { inputs: [] as string[][], failing: false, mode: 'ok' as Mode };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/embeddings')) return res.writeHead(404).end('{}');
      if (state.failing) return res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'down for the test' } }));
      const { input } = JSON.parse(body) as { input: string[] };
      state.inputs.push(input);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', model: 'toy', data: reply(input, state.mode), usage: { prompt_tokens: 1, total_tokens: 1 } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get inputs() {
      return state.inputs;
    },
    get failing() {
      return state.failing;
    },
    set failing(v: boolean) {
      state.failing = v;
    },
    get mode() {
      return state.mode;
    },
    set mode(m: Mode) {
      state.mode = m;
    },
    close: () => server.close(),
  };
}

let server: EmbeddingServer;
let scratch: string;

beforeAll(async () => {
  server = await startEmbeddingServer();
  scratch = scratchDir('embeddings');
});
afterAll(() => server.close());

async function build(dist: string, cache: string, embeddings = true): Promise<{ code: number; stderr: string; diagnostics: Diagnostic[] }> {
  let stderr = '';
  const sink = { write: (s: string) => ((stderr += s), true), isTTY: false } as unknown as NodeJS.WriteStream;
  const code = await buildCommand(FIXTURE, {
    out: dist,
    progress: false,
    jobs: 1,
    cache,
    embeddings: embeddings ? { embeddings: 'openai', baseURL: server.url, model: 'toy-embed', retries: 0, timeoutSeconds: 10, cacheDir: cache } : { embeddings: 'none' },
  }, { stdout: sink, stderr: sink });
  return { code, stderr, diagnostics: JSON.parse(fs.readFileSync(path.join(dist, 'diagnostics.json'), 'utf8')) as Diagnostic[] };
}

const query = (dist: string, task: string, extra: string[] = []) => skillcAsync(['query', task, '--dist', dist, '--format', 'json', '-k', '3', ...extra]);
const firstHit = (stdout: string) => (JSON.parse(stdout) as { hits: { path: string }[] }).hits[0]?.path;

describe('dense embeddings (--embeddings openai)', () => {
  let dist: string;
  const cache = () => path.join(scratch, 'cache');

  beforeAll(async () => {
    dist = path.join(scratch, 'dist');
    const built = await build(dist, cache());
    expect(built.code).toBe(0);
  });

  it('are written to the query index, one normalised row per skill, named by core.json', () => {
    const core = JSON.parse(fs.readFileSync(path.join(dist, 'index/core.json'), 'utf8')) as { docs: number[]; embeddings: { model: string; dimensions: number; sha256: string } };
    expect(validateAgainst('query-index', core).valid).toBe(true);
    expect(core.embeddings.model).toBe('toy-embed');
    expect(core.embeddings.dimensions).toBe(TOPICS.length + 1);
    const bytes = fs.readFileSync(path.join(dist, 'index/embeddings.f32'));
    expect(bytes.length).toBe(core.docs.length * core.embeddings.dimensions * 4);
    for (let d = 0; d < core.docs.length; d++) {
      let norm = 0;
      for (let j = 0; j < core.embeddings.dimensions; j++) norm += bytes.readFloatLE((d * core.embeddings.dimensions + j) * 4) ** 2;
      expect(Math.abs(norm - 1)).toBeLessThan(1e-5);
    }
    // Every skill in one request (six texts), each its name, description and headings.
    expect(server.inputs.length).toBe(1);
    expect(server.inputs[0]!.some((t) => t.startsWith('image-resize: Resizes photos'))).toBe(true);
    const manifest = JSON.parse(fs.readFileSync(path.join(dist, 'manifest.json'), 'utf8')) as { options: Record<string, unknown> };
    expect(manifest.options['embeddingsModel']).toBe('toy-embed');
  });

  it('come from the reply cache on a rebuild: no request, the same bytes', async () => {
    const before = server.inputs.length;
    const again = path.join(scratch, 'dist-again');
    expect((await build(again, cache())).code).toBe(0);
    expect(server.inputs.length).toBe(before);
    expect(fs.readFileSync(path.join(again, 'index/embeddings.f32')).equals(fs.readFileSync(path.join(dist, 'index/embeddings.f32')))).toBe(true);
  });

  it('bring a skill worded otherwise than the task to the top of the query', async () => {
    const task = 'shrink each photograph to a smaller width and save the file';
    const plain = await query(dist, task);
    expect(plain.code).toBe(0);
    expect(firstHit(plain.stdout)).not.toBe('image-resize');
    const mixed = await query(dist, task, ['--embeddings', 'openai', '--embeddings-base-url', server.url]);
    expect(mixed.stderr).toBe('');
    expect(mixed.code).toBe(0);
    expect(firstHit(mixed.stdout)).toBe('image-resize');
    // The task itself was embedded (after the build's request).
    expect(server.inputs.at(-1)).toEqual([task]);
  });

  it('leave coverage and NO_SKILL_HIT to the task\'s words', async () => {
    const r = await query(dist, 'zzqx wvyk', ['--embeddings', 'openai', '--embeddings-base-url', server.url]);
    expect(r.code).toBe(1);
  });

  it('fall back to the text ranking, with a warning, when the endpoint fails at query time', async () => {
    server.failing = true;
    try {
      const task = 'shrink each photograph to a smaller width and save the file';
      const r = await query(dist, task, ['--embeddings', 'openai', '--embeddings-base-url', server.url]);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/warning: embedding the task failed .*HTTP 500.*; ranked by text alone/);
      expect(firstHit(r.stdout)).toBe(firstHit((await query(dist, task)).stdout));
    } finally {
      server.failing = false;
    }
  });

  it('are left out, with SKC700, when the endpoint fails at build time; the build goes on', async () => {
    server.failing = true;
    try {
      const failed = path.join(scratch, 'dist-failed');
      const built = await build(failed, path.join(scratch, 'cache-failed'));
      expect(built.code).toBe(0);
      const d = built.diagnostics.find((x) => x.code === 'SKC700');
      expect(d?.message).toMatch(/^embeddings \(toy-embed\) failed: HTTP 500/);
      expect(fs.existsSync(path.join(failed, 'index/embeddings.f32'))).toBe(false);
      const core = JSON.parse(fs.readFileSync(path.join(failed, 'index/core.json'), 'utf8')) as Record<string, unknown>;
      expect(core['embeddings']).toBeUndefined();
      // Asking a dist without vectors for them is a usage error.
      const r = await query(failed, 'resize a photo', ['--embeddings', 'openai', '--embeddings-base-url', server.url]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/has no embeddings: build the library with --embeddings openai first/);
    } finally {
      server.failing = false;
    }
  });

  it('refuse a query embedded by another model', async () => {
    const r = await query(dist, 'resize a photo', ['--embeddings', 'openai', '--embeddings-base-url', server.url, '--embeddings-model', 'other']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/are of the model toy-embed, not other/);
  });

  it('refuse vectors that are not the ones core.json names', async () => {
    const damaged = path.join(scratch, 'dist-damaged');
    fs.cpSync(dist, damaged, { recursive: true });
    const file = path.join(damaged, 'index/embeddings.f32');
    const bytes = fs.readFileSync(file);
    bytes.writeFloatLE(0.5, 0);
    fs.writeFileSync(file, bytes);
    const r = await query(damaged, 'resize a photo', ['--embeddings', 'openai', '--embeddings-base-url', server.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/embeddings\.f32 is not the one index\/core\.json names/);
  });
});

describe('embedding replies are checked, never trusted', () => {
  const cases: [Mode, RegExp][] = [
    ['short', /gave 1 embeddings for 2 inputs/],
    ['duplicate', /embedding 1 has no index among the 2 inputs, or one given twice/],
    ['out-of-range', /embedding 0 has no index among the 2 inputs/],
    ['not-number', /embedding 0 is not a list of numbers/],
    ['mixed', /embeddings of 6 and 7 dimensions in one reply/],
    ['long', /has 65537 dimensions, more than 65536/],
  ];
  for (const [mode, message] of cases) {
    it(`a reply with ${mode} vectors fails with what is wrong`, async () => {
      server.mode = mode;
      try {
        const embedder = embedderFrom({ embeddings: 'openai', baseURL: server.url, model: 'toy', retries: 0, cacheDir: false })!;
        await expect(embedder.embed(['resize a photo', 'capture packets'])).rejects.toThrow(message);
      } finally {
        server.mode = 'ok';
      }
    });
  }
});

describe('embedTexts', () => {
  const cacheIn = (name: string) => new ReplyCache(path.join(scratchDir(`embed-texts-${name}`), 'cache'));
  const constant = (length: number, value = 1) => (batch: readonly string[]) => Promise.resolve({ vectors: batch.map(() => new Array<number>(length).fill(value)) });

  it('asks again for kept vectors of another length than the server gives now', async () => {
    const cache = cacheIn('relength');
    await embedTexts(constant(6), 'm', cache, ['a', 'b'], 2);
    const asked: string[][] = [];
    const got = await embedTexts((batch) => {
      asked.push([...batch]);
      return constant(7)(batch);
    }, 'm', cache, ['a', 'b', 'c'], 2);
    expect(got.dimensions).toBe(7);
    expect(asked).toEqual([['c'], ['a', 'b']]);
    // And the cache now holds the server's: nothing is asked the next time.
    const again = await embedTexts(() => Promise.reject(new Error('not asked')), 'm', cache, ['a', 'b', 'c'], 2);
    expect(again.requests).toBe(0);
    expect(again.dimensions).toBe(7);
  });

  it('stops asking once a batch fails, and aborts the requests in flight', async () => {
    const texts = Array.from({ length: 64 * 6 }, (_, i) => `text ${i}`);
    let calls = 0;
    let aborted = 0;
    const request = (batch: readonly string[], signal: AbortSignal) => {
      calls++;
      if (calls === 1) return Promise.reject(new ModelCallError('server', 'HTTP 500'));
      return new Promise<{ vectors: number[][] }>((resolve, reject) => {
        const timer = setTimeout(() => resolve({ vectors: batch.map(() => [1, 2]) }), 2000);
        signal.addEventListener('abort', () => {
          aborted++;
          clearTimeout(timer);
          reject(new Error('aborted'));
        });
      });
    };
    await expect(embedTexts(request, 'm', cacheIn('fail'), texts, 2)).rejects.toThrow('HTTP 500');
    expect(calls).toBe(2);
    expect(aborted).toBe(1);
  });

  it('normalises vectors whose squares would overflow', async () => {
    const small = await embedTexts((b) => Promise.resolve({ vectors: b.map(() => [3, 4]) }), 'm', cacheIn('small'), ['a'], 1);
    const huge = await embedTexts((b) => Promise.resolve({ vectors: b.map(() => [3e300, 4e300]) }), 'm', cacheIn('huge'), ['a'], 1);
    expect([...huge.vectors]).toEqual([...small.vectors]);
    expect(small.vectors[0]).toBeCloseTo(0.6, 6);
  });
});
