/**
 * `skillc serve` on a built dist, driven by the MCP SDK's Client as an agent host would:
 *
 * - start-up: spawn `skillc serve --dist <dist>` and time until the client is connected
 *   (initialize answered) and until its first search_skills answer; median of --starts runs;
 * - warm latency: one connected client calls search_skills, retrieve_bundle and plan for every
 *   query of the sets (after one warm-up pass), over stdio and over Streamable HTTP; client-side
 *   round trips, p50 and p90;
 * - identity: for the first --compare queries, search_skills hits (path, name, score, order) and
 *   retrieve_bundle's markdown against `skillc query --format json` and `skillc query` run as
 *   separate processes.
 *
 *   node build/bench/serve.js <dist> [--queries a.jsonl,b.jsonl] [--starts 5] [--compare 60]
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { packageRoot } from '../src/util/package-root.js';
import { benchArgs, readQuerySet } from './query-set.js';

const ROOT = packageRoot();
const BIN = path.join(ROOT, 'bin', 'skillc.js');
const { positional, value } = benchArgs(process.argv.slice(2), ['--queries', '--starts', '--compare']);
const dist = path.resolve(positional[0] ?? 'dist');
const querySets = (value('--queries') ?? 'bench/queries/skillsbench-tasks.jsonl,bench/queries/skillsbench-instructions.jsonl,bench/queries/descriptions.jsonl').split(',');
const starts = Number(value('--starts') ?? 5);
const compare = Number(value('--compare') ?? 60);
const queries = querySets.flatMap((f) => readQuerySet(path.resolve(ROOT, f), '').map((r) => r.query));

const median = (xs: number[]) => quantile(xs, 0.5);
function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}
const ms = (x: number) => `${x.toFixed(1)} ms`;

function stdioClient(): { client: Client; transport: StdioClientTransport } {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve', '--dist', dist, '-q'], cwd: ROOT, stderr: 'inherit' });
  return { client: new Client({ name: 'bench', version: '1' }), transport };
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content)}`);
  return r;
}

/** The CLI's stdout (exit 0 with hits, 1 with NO_SKILL_HIT). */
function cli(args: readonly string[]): string {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`skillc ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

async function startUp(): Promise<{ connect: number; first: number }> {
  const t0 = performance.now();
  const { client, transport } = stdioClient();
  await client.connect(transport);
  const connect = performance.now() - t0;
  await call(client, 'search_skills', { query: queries[0]! });
  const first = performance.now() - t0;
  await client.close();
  return { connect, first };
}

async function latencies(client: Client, label: string): Promise<void> {
  for (const q of queries) await call(client, 'search_skills', { query: q });
  const rows: [string, Record<string, unknown>][] = [['search_skills', {}], ['retrieve_bundle', {}], ['plan', {}]];
  for (const [tool] of rows) {
    const times: number[] = [];
    for (const q of queries) {
      const t = performance.now();
      await call(client, tool, { query: q });
      times.push(performance.now() - t);
    }
    console.log(`| ${label} | ${tool} | ${queries.length} | ${ms(median(times))} | ${ms(quantile(times, 0.9))} |`);
  }
}

async function main(): Promise<void> {
  console.log(`dist: ${dist}; ${queries.length} queries from ${querySets.join(', ')}\n`);
  const runs: { connect: number; first: number }[] = [];
  for (let i = 0; i < starts; i++) runs.push(await startUp());
  console.log(`start-up (spawn to initialize answered), median of ${starts}: ${ms(median(runs.map((r) => r.connect)))}; to the first search_skills answer: ${ms(median(runs.map((r) => r.first)))}`);
  console.log(`(runs: ${runs.map((r) => r.connect.toFixed(0)).join(', ')} ms)\n`);

  console.log('| transport | tool | calls | p50 | p90 |\n|---|---|---:|---:|---:|');
  const { client, transport } = stdioClient();
  await client.connect(transport);
  await latencies(client, 'stdio');

  const server = spawn(process.execPath, [BIN, 'serve', '--dist', dist, '--http', '0'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let err = '';
    server.stderr!.on('data', (d: Buffer) => {
      err += d.toString('utf8');
      const m = /at (http:\S+\/mcp)/.exec(err);
      if (m) resolve(m[1]!);
    });
    server.once('exit', () => reject(new Error(err)));
  });
  const httpClient = new Client({ name: 'bench', version: '1' });
  await httpClient.connect(new StreamableHTTPClientTransport(new URL(url)));
  await latencies(httpClient, 'http');
  await httpClient.close();
  server.kill('SIGTERM');

  let sameHits = 0;
  let sameText = 0;
  const n = Math.min(compare, queries.length);
  // Spread over the sets: every k-th query.
  const step = queries.length / n;
  for (let i = 0; i < n; i++) {
    const q = queries[Math.floor(i * step)]!;
    const cliJson = JSON.parse(cli(['query', '--dist', dist, '--format', 'json', '--', q])) as { hits: { path: string; name: string; score: number }[] };
    const got = (await call(client, 'search_skills', { query: q })).structuredContent as { hits: { path: string; name: string; score: number }[] };
    if (JSON.stringify(got.hits.map((h) => [h.path, h.name, h.score])) === JSON.stringify(cliJson.hits.map((h) => [h.path, h.name, h.score]))) sameHits++;
    else console.log(`differs: ${q}`);
    const cliMd = cli(['query', '--dist', dist, '--', q]);
    const md = (await call(client, 'retrieve_bundle', { query: q })).content[0] as { text: string };
    if (md.text === cliMd) sameText++;
    else console.log(`markdown differs: ${q}`);
  }
  console.log(`\nidentical to the CLI on ${n} queries: search_skills hits ${sameHits}/${n}, retrieve_bundle markdown ${sameText}/${n}`);
  await client.close();
}

main().catch((err: unknown) => {
  console.error(err);
  // The stdio server is a child that would keep this process alive.
  process.exit(1);
});
