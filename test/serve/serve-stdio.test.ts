/**
 * `skillc serve` over stdio, driven by the MCP SDK's own Client as an agent's host would drive it:
 * the fixture libraries are built once, the compiled CLI is spawned as the server, and every tool
 * and resource is called through the protocol. Answers must be the CLI's, byte for byte; bad
 * arguments and unknown names must be tool errors (or resource errors) with a clear message; a
 * rebuilt dist must be picked up; a missing or damaged dist must be exit 2 before any traffic.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildQueryFixtures, ROOT, skillc } from '../helpers/cli.js';
import { scratchDir } from '../helpers/tmp.js';

const BIN = path.join(ROOT, 'bin', 'skillc.js');

let cliDist: string;
let retrievalDist: string;

interface Served {
  readonly client: Client;
  readonly stderr: () => string;
  close(): Promise<void>;
}

const open: Served[] = [];

async function serve(dist: string, extra: readonly string[] = []): Promise<Served> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve', '--dist', dist, ...extra], stderr: 'pipe', cwd: ROOT });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const client = new Client({ name: 'skillc-test', version: '1.0.0' });
  await client.connect(transport);
  const s = { client, stderr: () => stderr, close: () => client.close() };
  open.push(s);
  return s;
}

function textOf(r: CallToolResult): string {
  const first = r.content[0];
  if (first?.type !== 'text') throw new Error(`no text content: ${JSON.stringify(r)}`);
  return first.text;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

beforeAll(() => {
  ({ cliDist, retrievalDist } = buildQueryFixtures('serve-stdio'));
});

afterAll(async () => {
  await Promise.all(open.map((s) => s.close().catch(() => undefined)));
});

const QUERIES = [
  'clone a git repository and build it from source',
  'back up a postgres database every night',
  'download a dataset then load the csv into sqlite',
  'set up a python virtual environment',
];

describe('skillc serve (stdio)', () => {
  it('lists the six tools with input schemas, and output schemas for the data tools', async () => {
    const { client } = await serve(cliDist);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['search_skills', 'retrieve_bundle', 'get_skill_bundle', 'get_contract', 'plan', 'list_skills']);
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('search_skills')!.inputSchema.required).toEqual(['query']);
    expect(byName.get('search_skills')!.outputSchema?.properties).toHaveProperty('hits');
    expect(byName.get('list_skills')!.outputSchema?.properties).toHaveProperty('nextCursor');
    expect(byName.get('retrieve_bundle')!.outputSchema).toBeUndefined();
    for (const t of tools) expect(t.annotations?.readOnlyHint).toBe(true);
  });

  it('search_skills ranks exactly as skillc query --format json', async () => {
    const { client } = await serve(cliDist);
    for (const q of QUERIES) {
      const cli = skillc(['query', q, '--dist', cliDist, '--format', 'json', '-k', '5']);
      expect(cli.code, cli.stderr).toBe(0);
      const expected = (JSON.parse(cli.stdout) as { hits: { path: string; name: string; score: number }[] }).hits.map((h) => ({ path: h.path, name: h.name, score: h.score }));
      const r = await call(client, 'search_skills', { query: q, k: 5 });
      expect(r.isError).toBeFalsy();
      const got = (r.structuredContent as { status: string; hits: { path: string; name: string; score: number }[] });
      expect(got.status).toBe('ok');
      expect(got.hits.map((h) => ({ path: h.path, name: h.name, score: h.score }))).toEqual(expected);
      // The text content is the same data, for clients that read text only.
      expect(JSON.parse(textOf(r))).toEqual(r.structuredContent);
    }
  });

  it('search_skills says NO_SKILL_HIT with the reason, as data, not as an error', async () => {
    const { client } = await serve(cliDist);
    const r = await call(client, 'search_skills', { query: 'qwzx vlorptang' });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual({ status: 'NO_SKILL_HIT', reason: 'no skill contains any of the query terms', hits: [] });
  });

  it('retrieve_bundle and plan answer the markdown of skillc query and skillc query --plan, byte for byte', async () => {
    const { client } = await serve(cliDist);
    for (const q of QUERIES) {
      const cli = skillc(['query', q, '--dist', cliDist, '--budget', '3000']);
      const r = await call(client, 'retrieve_bundle', { query: q, budget: 3000 });
      expect(textOf(r)).toBe(cli.stdout);
      const cliPlan = skillc(['query', '--plan', q, '--dist', cliDist]);
      const p = await call(client, 'plan', { query: q });
      expect(textOf(p)).toBe(cliPlan.stdout);
      const steps = (p.structuredContent as { steps: { step: number; path: string }[] }).steps;
      expect(steps.map((s) => s.step)).toEqual(steps.map((_, i) => i + 1));
      // The structure carries the steps, not their texts again.
      expect(p.structuredContent).not.toHaveProperty('markdown');
    }
  });

  it('get_skill_bundle gives the file an agent reads, by path or by a unique name', async () => {
    const { client } = await serve(cliDist);
    const graph = JSON.parse(fs.readFileSync(path.join(cliDist, 'graph.json'), 'utf8')) as { nodes: { kind: string; path?: string; bundle?: string }[] };
    const node = graph.nodes.find((n) => n.kind === 'parent' && n.path === 'db-backup')!;
    const onDisk = fs.readFileSync(path.join(cliDist, node.bundle!), 'utf8');
    expect(textOf(await call(client, 'get_skill_bundle', { skill: 'db-backup' }))).toBe(onDisk);
    expect(textOf(await call(client, 'get_skill_bundle', { skill: 'skill:db-backup' }))).toBe(onDisk);
    // A rewritten parent is read from its bundle, which carries every line of the original.
    const rewritten = graph.nodes.find((n) => n.kind === 'parent' && n.bundle?.startsWith('bundles/'));
    expect(rewritten).toBeDefined();
    expect(textOf(await call(client, 'get_skill_bundle', { skill: rewritten!.path! }))).toBe(fs.readFileSync(path.join(cliDist, rewritten!.bundle!), 'utf8'));
  });

  it('get_contract gives the readable text and the JSON record', async () => {
    const { client } = await serve(cliDist);
    const r = await call(client, 'get_contract', { id: 'git-clone-url' });
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toBe(fs.readFileSync(path.join(cliDist, 'contracts', 'git-clone-url.md'), 'utf8'));
    const s = r.structuredContent as { id: string; contract: unknown };
    expect(s.id).toBe('git-clone-url');
    expect(s.contract).toEqual(JSON.parse(fs.readFileSync(path.join(cliDist, 'contracts', 'git-clone-url.json'), 'utf8')));
    expect((await call(client, 'get_contract', { id: 'contract:git-clone-url' })).isError).toBeFalsy();
  });

  it('list_skills names every skill by path, sorted', async () => {
    const { client } = await serve(cliDist);
    const r = await call(client, 'list_skills', {});
    const s = r.structuredContent as { total: number; skills: { path: string }[]; nextCursor?: string };
    expect(s.total).toBe(8);
    expect(s.skills.map((x) => x.path)).toEqual([...s.skills.map((x) => x.path)].sort());
    expect(s.nextCursor).toBeUndefined();
  });

  it('bad arguments, unknown tools, skills and contracts, and forged cursors are tool errors that say what is wrong', async () => {
    const { client, stderr } = await serve(cliDist);
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['search_skills', { query: 5 }, /Invalid arguments for tool search_skills.*expected string/],
      ['search_skills', {}, /Invalid arguments for tool search_skills/],
      ['search_skills', { query: 'x', k: 0 }, /Invalid arguments/],
      ['retrieve_bundle', { query: 'backup', budget: 10 }, /Invalid arguments/],
      ['retrieve_bundle', { query: 'backup', budget: 1.5 }, /Invalid arguments/],
      ['get_skill_bundle', { skill: 'db-backupp' }, /no skill "db-backupp" in the library; did you mean/],
      ['get_skill_bundle', { skill: '../../etc/passwd' }, /no skill "\.\.\/\.\.\/etc\/passwd" in the library/],
      ['get_contract', { id: '../graph' }, /no contract "\.\.\/graph" in the library/],
      ['get_contract', { id: 'git-clone' }, /did you mean git-clone-url/],
      ['list_skills', { cursor: 'not-a-cursor' }, /not one list_skills gave/],
      ['no_such_tool', {}, /Tool no_such_tool not found/],
    ];
    for (const [name, args, message] of cases) {
      const r = await call(client, name, args);
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(r)).toMatch(message);
    }
    // The server is still up and answering.
    expect((await call(client, 'list_skills', {})).isError).toBeFalsy();
    expect(stderr()).not.toMatch(/internal error|at .*\.js:\d+/);
  });

  it('serves skill:// and contract:// resources; an unknown one is "resource not found"', async () => {
    const { client } = await serve(cliDist);
    const { resources } = await client.listResources();
    const skills = resources.filter((r) => r.uri.startsWith('skill://'));
    expect(skills).toHaveLength(8);
    expect(resources.filter((r) => r.uri.startsWith('contract://')).map((r) => r.uri)).toEqual(['contract://git-clone-url']);
    const db = await client.readResource({ uri: 'skill://db-backup' });
    expect((db.contents[0] as { text: string }).text).toBe(textOf(await call(client, 'get_skill_bundle', { skill: 'db-backup' })));
    const contract = await client.readResource({ uri: 'contract://git-clone-url' });
    expect(contract.contents.map((c) => c.mimeType)).toEqual(['text/markdown', 'application/json']);
    await expect(client.readResource({ uri: 'skill://no-such-skill' })).rejects.toMatchObject({ code: -32002 });
    await expect(client.readResource({ uri: 'contract://nope' })).rejects.toMatchObject({ code: -32002 });
  });

  it('withholds the steps of a skill flagged for malicious install steps', async () => {
    const dir = scratchDir('serve-flagged');
    const dist = path.join(dir, 'dist');
    const b = skillc(['build', 'test/fixtures/malicious-mix', '-o', dist, '-q']);
    expect(b.code, b.stderr).toBe(0);
    const graph = JSON.parse(fs.readFileSync(path.join(dist, 'graph.json'), 'utf8')) as { nodes: { kind: string; path?: string; flagged?: string[]; bundle?: string }[] };
    const flagged = graph.nodes.find((n) => n.kind === 'parent' && n.flagged)!;
    expect(flagged).toBeDefined();
    const { client } = await serve(dist);
    const text = textOf(await call(client, 'get_skill_bundle', { skill: flagged.path! }));
    expect(text).toMatch(/Flagged by skillc: .* Its steps are withheld/);
    // Not one line of the skill's body is handed out.
    const body = fs.readFileSync(path.join(dist, flagged.bundle!), 'utf8').split('\n').filter((l) => l.trim().length > 20 && !l.startsWith('name:'));
    for (const line of body) expect(text).not.toContain(line);
    const hits = (await call(client, 'search_skills', { query: flagged.path!.replace(/[-/]/g, ' ') })).structuredContent as { hits: { path: string; flagged?: boolean }[] };
    expect(hits.hits.find((h) => h.path === flagged.path)?.flagged).toBe(true);
  });

  it('picks up a rebuilt dist, tells the client the resources changed, and reports a damaged rebuild as tool errors until a good one', async () => {
    const dir = scratchDir('serve-reload');
    const dist = path.join(dir, 'dist');
    fs.cpSync(cliDist, dist, { recursive: true });
    const { client, stderr } = await serve(dist, ['--watch-interval', '50']);
    let changed = 0;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      changed++;
    });
    expect((((await call(client, 'list_skills', {})).structuredContent) as { total: number }).total).toBe(8);

    // Rebuild another library into the same folder: the next request sees it.
    const b = skillc(['build', 'test/fixtures/retrieval', '-o', dist, '-q', '--force']);
    expect(b.code, b.stderr).toBe(0);
    const after = (await call(client, 'list_skills', {})).structuredContent as { total: number; skills: { path: string }[] };
    const retrievalGraph = JSON.parse(fs.readFileSync(path.join(retrievalDist, 'graph.json'), 'utf8')) as { nodes: { kind: string; path?: string }[] };
    const expected = retrievalGraph.nodes.flatMap((n) => (n.kind === 'parent' ? [n.path!] : [])).sort();
    expect(after.skills.map((s) => s.path)).toEqual(expected);
    expect(after.total).toBe(expected.length);
    await waitFor(() => changed > 0);

    // A damaged index: tool errors that say so, the server stays up.
    fs.writeFileSync(path.join(dist, 'index', 'core.json'), '{"schemaVersion": 1, "nodes": [');
    fs.writeFileSync(path.join(dist, 'manifest.json'), fs.readFileSync(path.join(dist, 'manifest.json')));
    const broken = await call(client, 'search_skills', { query: 'backup' });
    expect(broken.isError).toBe(true);
    expect(textOf(broken)).toMatch(/core\.json is not valid JSON.*serving resumes when a build replaces it/);
    await waitFor(() => /the rebuilt dist cannot be served/.test(stderr()));

    // A good build again: served.
    const again = skillc(['build', 'test/fixtures/cli-automation', '-o', dist, '-q', '--force']);
    expect(again.code, again.stderr).toBe(0);
    expect((((await call(client, 'list_skills', {})).structuredContent) as { total: number }).total).toBe(8);
  });
});

describe('skillc serve: start-up', () => {
  it('a missing dist, a dist without a manifest and a damaged index are one line on stderr and exit 2, with nothing on stdout', () => {
    const dir = scratchDir('serve-bad');
    const damaged = path.join(dir, 'damaged');
    fs.cpSync(cliDist, damaged, { recursive: true });
    fs.writeFileSync(path.join(damaged, 'index', 'core.json'), 'not json');
    const empty = path.join(dir, 'empty');
    fs.mkdirSync(empty);
    const cases: [string, RegExp][] = [
      [path.join(dir, 'missing'), /missing does not exist: build the library first/],
      [empty, /empty is empty: build the library first/],
      // A folder of other things is not to be built over: no advice to do so.
      [path.join(ROOT, 'test'), /test is not a skillc dist \(it has no manifest\.json\); --dist names the output folder of skillc build$/m],
      [path.join(ROOT, 'package.json'), /package\.json is not a folder/],
      [damaged, /index\/core\.json is not valid JSON/],
    ];
    for (const [dist, message] of cases) {
      const r = skillc(['serve', '--dist', dist]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('--host without --http and a bad port are usage errors (exit 2)', () => {
    expect(skillc(['serve', '--dist', cliDist, '--host', '0.0.0.0']).code).toBe(2);
    expect(skillc(['serve', '--dist', cliDist, '--http', '70000']).code).toBe(2);
    expect(skillc(['serve', '--help']).stdout).toMatch(/mcpServers/);
  });

  it('answers a line that is not JSON, or not JSON-RPC, with the spec\'s error instead of silence', () => {
    const r = spawnSyncServe(cliDist, '{garbage\n\n  \r\n{"jsonrpc":"1.0","id":3,"method":"ping"}\n{"method":"ping"}\n{"jsonrpc":"2.0","id":4,"method":"ping"}\n');
    expect(r.status).toBe(0);
    const replies = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: unknown; error?: { code: number }; result?: unknown });
    // Blank lines get no answer; a bad request whose id can be read is answered under that id.
    expect(replies).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error/) } },
      { jsonrpc: '2.0', id: 3, error: { code: -32600, message: expect.stringMatching(/^Invalid Request/) } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/^Invalid Request/) } },
      { jsonrpc: '2.0', id: 4, result: {} },
    ]);
    expect(r.stderr).toMatch(/Parse error/);
  });

  it('answers every request written before stdin closes', () => {
    const lines = [
      ...PIPE_START,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'retrieve_bundle', arguments: { query: 'back up a database' } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_skills', arguments: { query: 'deploy' } } },
    ];
    const dist = slowBundleDist('serve-inflight');
    const r = spawnSyncServe(dist, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    expect(r.status).toBe(0);
    const ids = r.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { id: unknown }).id);
    expect(ids.sort()).toEqual([1, 2, 3]);
  });

  it('does not wait for a request the client cancelled', () => {
    const dist = slowBundleDist('serve-cancel');
    const lines = [
      ...PIPE_START,
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'retrieve_bundle', arguments: { query: 'back up a database' } } },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5, reason: 'not needed' } },
    ];
    // The cancel after its request, and before it in the same write (the SDK still cancels it).
    for (const order of [lines, [lines[0]!, lines[1]!, lines[3]!, lines[2]!]]) {
      const started = Date.now();
      const r = spawnSyncServe(dist, order.map((l) => JSON.stringify(l)).join('\n') + '\n');
      expect(r.status).toBe(0);
      expect(Date.now() - started).toBeLessThan(15_000);
    }
  });

  it('ends with exit 0 on SIGTERM while stdin is still open', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--dist', cliDist, '-q'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    await waitFor(() => out.includes('"id":1'));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    expect(await exited).toBe(0);
    clearTimeout(timer);
  });

  it('ends with exit 0 when the client closes stdin', () => {
    const r = spawnSyncServe(cliDist, '');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
  });
});

/** What a client that pipes its requests writes first. */
const PIPE_START = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
];

/**
 * A dist of one skill whose bundle holds HTML: closing its blocks loads a parser, so an answer
 * that hydrates it is slow to come (what a race with the end of stdin needs).
 */
function slowBundleDist(name: string): string {
  const lib = scratchDir(name);
  fs.mkdirSync(path.join(lib, 'skills', 'db-backup'), { recursive: true });
  fs.writeFileSync(path.join(lib, 'skills', 'db-backup', 'SKILL.md'), '---\nname: db-backup\ndescription: Back up a database to a file.\n---\n\n# Back up a database\n\n<div align="center">\n<img src="logo.png">\n</div>\n\n```bash\npg_dump mydb -f backup.sql\n```\n');
  const dist = path.join(lib, 'dist');
  const r = skillc(['build', path.join(lib, 'skills'), '-o', dist, '-q']);
  if (r.code !== 0) throw new Error(`skillc build exited ${r.code}: ${r.stderr}`);
  return dist;
}

function spawnSyncServe(dist: string, input: string) {
  return spawnSync(process.execPath, [BIN, 'serve', '--dist', dist, '-q'], { input, encoding: 'utf8', timeout: 20_000 });
}

async function waitFor(condition: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}
