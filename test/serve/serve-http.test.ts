/**
 * `skillc serve --http`: the compiled CLI listens on loopback and the MCP SDK's Streamable HTTP
 * client talks to it; raw requests check what a browser page or a careless client could send
 * (a foreign Host or Origin, another path, a huge body, a request without a session). The session
 * cap is checked in process, on the HTTP front itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildQueryFixtures, ROOT, skillc } from '../helpers/cli.js';
import { createMcpServer } from '../../src/serve/mcp-server.js';
import { startHttpFront } from '../../src/serve/http-front.js';
import { openServedDist } from '../../src/serve/served-dist.js';

const BIN = path.join(ROOT, 'bin', 'skillc.js');

let cliDist: string;
let server: ChildProcess;
let url: string;
let stderr = '';

beforeAll(async () => {
  ({ cliDist } = buildQueryFixtures('serve-http'));
  server = spawn(process.execPath, [BIN, 'serve', '--dist', cliDist, '--http', '0'], { cwd: ROOT });
  server.stdout!.resume();
  url = await new Promise<string>((resolve, reject) => {
    server.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString('utf8');
      const m = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (m) resolve(m[1]!);
    });
    server.once('exit', (code) => reject(new Error(`server exited ${code}: ${stderr}`)));
  });
});

afterAll(() => {
  if (server.exitCode === null) server.kill('SIGKILL');
});

async function connect(at: string): Promise<Client> {
  const client = new Client({ name: 'skillc-http-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(at)));
  return client;
}

/** A raw request, with the headers a hostile page or client would choose. */
function request(method: string, target: string, headers: Record<string, string>, body?: string | Buffer): Promise<{ status: number; text: string }> {
  const u = new URL(target);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method, headers }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('skillc serve --http', () => {
  it('answers the SDK client on 127.0.0.1, as the CLI ranks', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connect(url);
    const q = 'clone a git repository and build it from source';
    const r = (await client.callTool({ name: 'search_skills', arguments: { query: q, k: 4 } })) as CallToolResult;
    const cli = JSON.parse(skillc(['query', q, '--dist', cliDist, '--format', 'json', '-k', '4']).stdout) as { hits: { path: string; score: number }[] };
    expect((r.structuredContent as { hits: { path: string; score: number }[] }).hits.map((h) => [h.path, h.score])).toEqual(cli.hits.map((h) => [h.path, h.score]));
    const md = (await client.callTool({ name: 'retrieve_bundle', arguments: { query: q } })) as CallToolResult;
    expect((md.content[0] as { text: string }).text).toBe(skillc(['query', q, '--dist', cliDist]).stdout);
    await client.close();
  });

  it('two clients get sessions of their own', async () => {
    const a = await connect(url);
    const b = await connect(url);
    const [ra, rb] = await Promise.all([a.callTool({ name: 'list_skills', arguments: {} }), b.callTool({ name: 'list_skills', arguments: {} })]);
    expect(ra.structuredContent).toEqual(rb.structuredContent);
    await a.close();
    // b's session is unaffected by a's end.
    expect(((await b.callTool({ name: 'list_skills', arguments: {} })) as CallToolResult).isError).toBeFalsy();
    await b.close();
  });

  it('refuses a foreign Host (DNS rebinding) or Origin with 403, and accepts loopback names', async () => {
    const port = new URL(url).port;
    expect((await request('POST', url, { ...JSON_HEADERS, host: `evil.example:${port}` }, INIT)).status).toBe(403);
    expect((await request('POST', url, { ...JSON_HEADERS, host: `127.0.0.1:${port}`, origin: 'https://evil.example' }, INIT)).status).toBe(403);
    expect((await request('POST', url, { ...JSON_HEADERS, host: `localhost:${port}`, origin: `http://localhost:${port}` }, INIT)).status).toBe(200);
  });

  it('answers other paths 404, other methods 405, a body over 4 MiB 413, bad JSON 400, and a request without a session 400', async () => {
    const base = url.replace(/\/mcp$/, '');
    expect((await request('GET', `${base}/`, {})).status).toBe(404);
    expect((await request('PUT', url, JSON_HEADERS, '{}')).status).toBe(405);
    expect((await request('POST', url, JSON_HEADERS, Buffer.alloc(5 * 1024 * 1024, 0x20))).status).toBe(413);
    expect((await request('POST', url, JSON_HEADERS, '{not json')).status).toBe(400);
    const noSession = await request('POST', url, JSON_HEADERS, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect(noSession.status).toBe(400);
    expect(noSession.text).toMatch(/first request must be initialize/);
    expect((await request('POST', url, { ...JSON_HEADERS, 'mcp-session-id': 'no-such-session' }, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }))).status).toBe(404);
    // Still serving.
    const client = await connect(url);
    expect((await client.listTools()).tools).toHaveLength(6);
    await client.close();
  });

  it('ends with exit 0 on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).not.toMatch(/internal error/);
  });
});

describe('HTTP front', () => {
  it('closes the least recently used session when the cap is reached', async () => {
    const handle = openServedDist(cliDist);
    const front = await startHttpFront(() => createMcpServer(handle), { host: '127.0.0.1', port: 0, maxSessions: 2 });
    try {
      const first = await connect(front.url);
      const second = await connect(front.url);
      await first.listTools(); // first is now the most recently used
      const third = await connect(front.url);
      expect(front.servers()).toHaveLength(2);
      await expect(second.listTools()).rejects.toThrow(/Session not found/);
      expect((await first.listTools()).tools).toHaveLength(6);
      expect((await third.listTools()).tools).toHaveLength(6);
      await Promise.all([first.close(), second.close().catch(() => undefined), third.close()]);
    } finally {
      await front.close();
      handle.close();
    }
  });

  it('off loopback, accepts IP literals and --allow-host names but refuses other names (DNS rebinding) and foreign origins', async () => {
    const handle = openServedDist(cliDist);
    const front = await startHttpFront(() => createMcpServer(handle), { host: '0.0.0.0', port: 0, allowedHosts: ['skills.internal'] });
    try {
      const port = new URL(front.url).port;
      const at = `http://127.0.0.1:${port}/mcp`;
      const status = async (host: string, origin?: string) => (await request('POST', at, { ...JSON_HEADERS, host, ...(origin ? { origin } : {}) }, INIT)).status;
      expect(await status(`10.1.2.3:${port}`)).toBe(200);
      expect(await status(`[fd00::1]:${port}`)).toBe(200);
      expect(await status(`skills.internal:${port}`)).toBe(200);
      expect(await status(`evil.example:${port}`)).toBe(403);
      expect(await status(`10.1.2.3:${port}`, 'https://evil.example')).toBe(403);
      expect(await status(`10.1.2.3:${port}`, `http://10.1.2.3:${port}`)).toBe(200);
    } finally {
      await front.close();
      handle.close();
    }
  });

  it('says why it cannot listen: exit 2 on a port in use', async () => {
    const blocker = http.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = skillc(['serve', '--dist', cliDist, '--http', String(port)]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}`));
    } finally {
      blocker.close();
    }
  });
});
