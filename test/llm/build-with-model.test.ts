/**
 * `skillc build --llm openai` end to end on the CLI-automation fixture (eight skills share a
 * bootstrap procedure that the build rewrites), with the real `openai` client
 * against an OpenAI-compatible server the test runs on loopback. Covers the replies the issue
 * names (normal, malformed JSON, schema-violating contracts, bindings not in the unit, cleanups
 * that drop an invoke or invent content, 429 then success, a hanging server), the call budget
 * (clusters + 2 × touched parents), and the cache (a rebuild makes no calls; a change to one skill
 * calls only for what it touches).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCommand, type BuildCommandOptions } from '../../src/cli/build-command.js';
import { validateAgainst } from '../../src/schema/validate.js';
import type { CallSite, Contract, DroppedCallSite, Cleanup } from '../../src/ir/types.js';
import type { BuildReport } from '../../src/report/build-report.js';
import type { Diagnostic } from '../../src/ir/diagnostics.js';
import { echoReply, promptOf, startOpenAIServer, userOf, type Handler, type OpenAIServer } from '../../bench/openai-server.js';
import { ROOT, skillcAsync } from '../helpers/cli.js';
import { scratchDir } from '../helpers/tmp.js';

const FIXTURE = path.join(ROOT, 'test/fixtures/cli-automation');
let server: OpenAIServer;
let scratch: string;
let runs = 0;

beforeAll(async () => {
  server = await startOpenAIServer();
  scratch = scratchDir('llm-build');
});
afterAll(() => server.close());

interface Built {
  readonly code: number;
  readonly stderr: string;
  readonly dist: string;
  readonly calls: number;
  readonly requests: OpenAIServer['requests'];
  readonly report: BuildReport;
  readonly diagnostics: Diagnostic[];
  readonly contracts: Contract[];
  readonly library: { call_sites: CallSite[]; dropped_call_sites: DroppedCallSite[]; cleanups: Cleanup[] };
}

async function build(handler: Handler, o: { library?: string; cache?: string | false; timeout?: number; retries?: number; llm?: boolean } = {}): Promise<Built> {
  server.setHandler(handler);
  const dist = path.join(scratch, `dist-${runs++}`);
  let stderr = '';
  const sink = { write: (s: string) => ((stderr += s), true), isTTY: false } as unknown as NodeJS.WriteStream;
  const before = server.requests.length;
  const opts: BuildCommandOptions = {
    out: dist,
    quiet: false,
    progress: false,
    jobs: 1,
    llm: o.llm === false ? { llm: 'none' } : { llm: 'openai', baseURL: server.url, model: 'test-model', concurrency: 3, timeoutSeconds: o.timeout ?? 10, retries: o.retries ?? 2, cacheDir: o.cache ?? path.join(scratch, `cache-${runs}`) },
  };
  const code = await buildCommand(o.library ?? FIXTURE, opts, { stdout: sink, stderr: sink });
  const read = <T>(f: string) => JSON.parse(fs.readFileSync(path.join(dist, f), 'utf8')) as T;
  const contractDir = path.join(dist, 'contracts');
  const contracts = (fs.existsSync(contractDir) ? fs.readdirSync(contractDir) : []).filter((f) => f.endsWith('.json')).map((f) => read<Contract>(`contracts/${f}`));
  const requests = server.requests.slice(before);
  return { code, stderr, dist, calls: requests.length, requests, report: read('report.json'), diagnostics: read('diagnostics.json'), contracts, library: read('refactored_library.json') };
}

/** The echo reply with one change made by `edit` for requests of one prompt. */
function tweak(prompt: string, edit: (reply: Record<string, unknown>, user: string) => unknown): Handler {
  return (body) => {
    const reply = echoReply(body);
    const content = promptOf(body) === prompt ? edit(reply, userOf(body)) : reply;
    return { kind: 'content', content: typeof content === 'string' ? content : JSON.stringify(content) };
  };
}

const codes = (b: Built) => b.diagnostics.map((d) => d.code);
const echo: Handler = tweak('none', (r) => r);

let baseline: Built;
let deterministic: Built;
beforeAll(async () => {
  deterministic = await build(echo, { llm: false });
  baseline = await build(echo);
});

describe('skillc build --llm openai (normal replies)', () => {
  it('uses the model for all three passes and stays within clusters + 2 × touched parents calls', () => {
    const b = baseline;
    expect(b.code, b.stderr).toBe(0);
    const clusters = b.report.pipeline!.clusters;
    const touched = new Set(b.library.call_sites.map((c) => c.parent).concat(b.library.dropped_call_sites.map((d) => d.parent))).size;
    expect(b.calls).toBeGreaterThan(0);
    expect(b.calls).toBeLessThanOrEqual(clusters + 2 * touched);
    const passes = Object.fromEntries(b.report.llm!.passes.map((p) => [p.pass, p]));
    expect(passes['extract']!.requests).toBe(clusters);
    expect(passes['rewrite']!.requests).toBe(b.report.refactor!.rewrittenParents);
    expect(passes['bind']!.requests).toBeLessThanOrEqual(touched);
    for (const r of b.requests) {
      expect(r.body.temperature).toBe(0);
      expect(r.body.model).toBe('test-model');
    }
    // Model drafts are used (and, from an echoing model, equal the deterministic ones).
    const promoted = b.contracts.filter((c) => c.provenance.method === 'model');
    expect(promoted.length).toBe(deterministic.contracts.length);
    expect(promoted.every((c) => c.provenance.model === 'test-model' && /^[0-9a-f]{64}$/.test(c.provenance.cacheKey ?? ''))).toBe(true);
    expect(b.library.call_sites.every((c) => c.binder === 'model')).toBe(true);
    expect(b.library.call_sites.map((c) => c.invoke)).toEqual(deterministic.library.call_sites.map((c) => c.invoke));
    expect(b.stderr).toMatch(/model test-model: extract \d+, bind \d+, rewrite \d+ requests/);
  });

  it('writes artifacts that validate against their schemas', () => {
    expect(validateAgainst('report', baseline.report).errors).toEqual([]);
    expect(validateAgainst('refactored-library', baseline.library).errors).toEqual([]);
    for (const c of baseline.contracts) expect(validateAgainst('contract', c).errors).toEqual([]);
  });

  it('makes zero calls when an unchanged library is rebuilt', async () => {
    const again = await build(echo, { cache: path.join(scratch, 'cache-2') });
    expect(again.calls).toBe(0);
    const sum = again.report.llm!.passes.reduce((a, p) => a + p.cacheHits, 0);
    expect(sum).toBe(baseline.calls);
    expect(fs.readFileSync(path.join(again.dist, 'refactored_library.json'))).toEqual(fs.readFileSync(path.join(baseline.dist, 'refactored_library.json')));
  });

  it('calls only for the clusters, call-sites and parents a changed skill touches', async () => {
    const lib = path.join(scratch, 'changed');
    fs.cpSync(FIXTURE, lib, { recursive: true });
    const cache = path.join(scratch, 'cache-changed');
    const first = await build(echo, { library: lib, cache });
    expect(first.calls).toBe(baseline.calls);
    const file = path.join(lib, 'csv-to-sqlite/SKILL.md');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('The example imports the public airport codes list.', 'The example imports the public list of airport codes.'));
    const second = await build(echo, { library: lib, cache });
    expect(second.calls).toBeGreaterThan(0);
    expect(second.calls).toBeLessThan(first.calls);
    for (const r of second.requests) expect(userOf(r.body)).toContain('csv-to-sqlite');
  });
});

describe('skillc build --llm openai (bad replies fall back to the deterministic result)', () => {
  it('malformed JSON: deterministic drafts, SKC701, build completes', async () => {
    const b = await build(tweak('skillc_extract_contract', () => '{"trigger": "oops'));
    expect(b.code).toBe(0);
    expect(b.contracts.every((c) => c.provenance.method === 'deterministic')).toBe(true);
    expect(codes(b).filter((c) => c === 'SKC701').length).toBe(b.report.pipeline!.clusters);
    expect(b.report.llm!.passes.find((p) => p.pass === 'extract')!.items.failed).toBe(b.report.pipeline!.clusters);
    expect(b.library.call_sites.length).toBe(deterministic.library.call_sites.length);
  });

  it('a schema-violating contract (wrong field type) is invalid; an ungrounded one is rejected', async () => {
    const wrongType = await build(tweak('skillc_extract_contract', (r) => ({ ...r, input_schema: [{ name: 'Object Name', type: 'thing', required: 'yes', description: 1 }] })));
    expect(codes(wrongType)).toContain('SKC701');
    expect(wrongType.contracts.every((c) => c.provenance.method === 'deterministic')).toBe(true);

    const ungrounded = await build(tweak('skillc_extract_contract', (r) => (r['_extraction_failed'] ? r : { ...r, templates: ['teleport {object} to the moon'], input_schema: [{ name: 'object', type: 'string', required: true, description: 'what' }] })));
    const rejected = ungrounded.diagnostics.filter((d) => d.code === 'SKC702');
    expect(rejected.length).toBeGreaterThan(0);
    expect(rejected[0]!.message).toMatch(/no template is grounded/);
    expect(ungrounded.contracts.every((c) => c.provenance.method === 'deterministic')).toBe(true);
  });

  it('_extraction_failed is honoured: the cluster becomes an extraction failure', async () => {
    const b = await build(tweak('skillc_extract_contract', (r) => ({ ...r, _extraction_failed: true, reason: 'these passages do different things' })));
    expect(b.report.pipeline!.drafts).toBe(0);
    expect(b.report.pipeline!.firstFailed['extraction_failed']).toBe(b.report.pipeline!.clusters);
    expect(codes(b)).toContain('SKC703');
  });

  it('bindings not found in the unit are rejected; the aligner\'s bindings stand', async () => {
    const b = await build(tweak('skillc_bind_call_sites', (r) => ({ call_sites: (r['call_sites'] as { bindings: { name: string; value: string }[] }[]).map((c) => ({ ...c, bindings: c.bindings.map((x) => ({ ...x, value: 'banana 7' })) })) })));
    const rejected = b.diagnostics.filter((d) => d.code === 'SKC702' && d.pass === 'bind');
    expect(rejected.length).toBe(deterministic.library.call_sites.length + deterministic.library.dropped_call_sites.filter((d) => d.stage !== 'detect').length);
    expect(rejected[0]!.message).toMatch(/"banana 7" does not occur in the unit/);
    expect(b.library.call_sites.map((c) => c.invoke)).toEqual(deterministic.library.call_sites.map((c) => c.invoke));
    expect(b.library.call_sites.every((c) => c.binder === 'deterministic')).toBe(true);
  });

  it('should_invoke false drops the candidate at stage model', async () => {
    const b = await build(tweak('skillc_bind_call_sites', (r) => ({ call_sites: (r['call_sites'] as object[]).map((c) => ({ ...c, should_invoke: false, rationale: 'only mentions it' })) })));
    expect(b.library.call_sites).toEqual([]);
    // Every candidate that passed detection and binding was judged, rewritten later or not.
    const judged = deterministic.library.call_sites.length + deterministic.library.dropped_call_sites.filter((d) => ['never-rewrite', 'faithful', 'pay', 'rewrite'].includes(d.stage)).length;
    expect(b.library.dropped_call_sites.filter((d) => d.stage === 'model').length).toBe(judged);
    expect(b.report.refactor!.dropped.model).toBe(judged);
  });

  /** Line number (1-based) of the first line of a rewritten skill that contains `needle`. */
  const lineOf = (user: string, needle: string) => {
    const m = new RegExp(`^ *(\\d+)\\| .*${needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm').exec(user);
    return m ? Number(m[1]) : 1;
  };
  const forSkill = (edit: (user: string) => object) => tweak('skillc_rewrite_cleanup', (_r, user) => (user.includes('csv-to-sqlite') ? { edits: [edit(user)] } : { edits: [] }));
  const bootstrap = 'invoke(git-clone-url, {url="https://github.com/example-org/sqlite-helpers.git", directory="sqlite-helpers"})';
  const unchanged = (b: Built) => expect(fs.readFileSync(path.join(b.dist, 'skills/csv-to-sqlite/SKILL.md'))).toEqual(fs.readFileSync(path.join(deterministic.dist, 'skills/csv-to-sqlite/SKILL.md')));

  it('Rewrite Cleanup that rewords a line into an invoke is rejected: the invoke must give back the text', async () => {
    const b = await build(forSkill((u) => ({ line: lineOf(u, 'pip install sqlite-utils'), find: 'pip install sqlite-utils', replace: bootstrap, rationale: 'installs too' })));
    expect(b.diagnostics.find((x) => x.code === 'SKC702' && x.pass === 'rewrite')?.message).toMatch(/the invoke gives "git clone --depth 1 https:\/\/github\.com\/example-org\/sqlite-helpers\.git \/ cd sqlit.*", not the text it replaces \("pip install sqlite-utils"\)/);
    expect(b.library.cleanups.filter((c) => c.by === 'model')).toEqual([]);
    unchanged(b);
  });

  it('Rewrite Cleanup that drops a contract reference is rejected', async () => {
    const b = await build(forSkill((u) => ({ line: lineOf(u, 'invoke(git-clone-url'), find: bootstrap, replace: 'set up the helpers', rationale: 'shorter' })));
    const d = b.diagnostics.find((x) => x.code === 'SKC702' && x.pass === 'rewrite');
    expect(d?.message).toMatch(/changes text skillc wrote/);
    unchanged(b);
  });

  it('Rewrite Cleanup that adds words around an invoke is rejected', async () => {
    const b = await build(forSkill((u) => ({ line: lineOf(u, 'pip install sqlite-utils'), find: 'pip install sqlite-utils', replace: `${bootstrap} then teleport home`, rationale: 'x' })));
    expect(b.diagnostics.find((x) => x.code === 'SKC702' && x.pass === 'rewrite')?.message).toMatch(/the replacement is not one invoke alone/);
    unchanged(b);
  });

  it('Rewrite Cleanup with a replacement that is not an invoke is rejected', async () => {
    const b = await build(forSkill((u) => ({ line: lineOf(u, 'pip install sqlite-utils'), find: 'pip install sqlite-utils', replace: 'pip install sqlite-utils quickly', rationale: 'x' })));
    expect(b.diagnostics.find((x) => x.code === 'SKC702' && x.pass === 'rewrite')?.message).toMatch(/holds no well-formed invoke/);
    unchanged(b);
  });

  it('a reply that invents a risky precondition, trigger or evidence reaches no contract, bundle or skill (issue 24 item 1)', async () => {
    const chmod = 'run sudo chmod -R 777 / first';
    const b = await build(tweak('skillc_extract_contract', (r) => (r._extraction_failed ? r : {
      ...r,
      trigger: `${String(r.trigger)}; ${chmod}`,
      preconditions: [...(r.preconditions as string[]), chmod],
      side_effects: [...(r.side_effects as unknown[]), { kind: 'filesystem', evidence: chmod }],
    })));
    expect(b.code, b.stderr).toBe(0);
    expect(b.contracts.length).toBe(deterministic.contracts.length);
    const written: string[] = [];
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (!/^(diagnostics|report)\.(json|md)$/.test(e.name)) written.push(p);
      }
    };
    walk(b.dist);
    for (const f of written) expect(fs.readFileSync(f, 'utf8'), f).not.toContain('chmod -R 777');
    // Each left-out text is a diagnostic at the cluster.
    expect(codes(b).filter((c) => c === 'SKC705').length).toBeGreaterThanOrEqual(3 * b.contracts.length);
    expect(b.diagnostics.find((d) => d.code === 'SKC705')!.message).toMatch(/the model's (trigger|precondition|side effect).*not in the passages\); left out/);
  });

  it('429 then success: the build uses the replies', async () => {
    let first = true;
    const b = await build((body) => {
      if (first) {
        first = false;
        return { kind: 'status', status: 429, message: 'rate limited', headers: { 'retry-after-ms': '10' } };
      }
      return echo(body, 0);
    });
    expect(b.calls).toBe(baseline.calls + 1);
    expect(b.report.llm!.attempts).toBe(baseline.calls + 1);
    expect(codes(b).filter((c) => c.startsWith('SKC70') && c !== 'SKC703')).toEqual([]);
    expect(b.contracts.every((c) => c.provenance.method === 'model')).toBe(true);
  });

  it('a hanging server times out; every item keeps its deterministic result', async () => {
    const b = await build(() => ({ kind: 'hang' }), { timeout: 0.2, retries: 0 });
    expect(b.code).toBe(0);
    const failed = b.report.llm!.passes.reduce((a, p) => a + p.failed, 0);
    expect(failed).toBe(b.report.llm!.passes.reduce((a, p) => a + p.requests, 0));
    // The server is given up after three timeouts in a row (plus those already in flight).
    expect(b.calls).toBeLessThanOrEqual(3 + 2);
    expect(b.diagnostics.find((d) => d.code === 'SKC700')?.message).toMatch(/timed out/);
    expect(fs.readFileSync(path.join(b.dist, 'refactored_library.json'), 'utf8').replace(/"binder": "deterministic"/g, '')).toEqual(fs.readFileSync(path.join(deterministic.dist, 'refactored_library.json'), 'utf8').replace(/"binder": "deterministic"/g, ''));
  });

  it('a wrong key (401) fails fast: a few calls, then none; the build completes', async () => {
    const b = await build(() => ({ kind: 'status', status: 401, message: 'Incorrect API key provided' }));
    expect(b.code).toBe(0);
    expect(b.calls).toBeLessThanOrEqual(3);
    expect(b.diagnostics.filter((d) => d.code === 'SKC700').every((d) => /401/.test(d.message))).toBe(true);
  });
});

describe('skillc build --llm on the command line', () => {
  it('runs the CLI against the loopback server', async () => {
    server.setHandler(echo);
    const out = path.join(scratch, 'cli-dist');
    const r = await skillcAsync(['build', 'test/fixtures/alfworld', '-o', out, '--llm', 'openai', '--llm-base-url', server.url, '--model', 'cli-model', '--llm-cache', path.join(scratch, 'cli-cache')], { OPENAI_API_KEY: 'sk-test' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/model cli-model: extract 4, bind \d+, rewrite \d+ requests \(0 cached, \d+ calls/);
    expect(JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8')).options).toMatchObject({ llm: 'openai', model: 'cli-model' });
  });

  it('refuses --llm openai with neither a key nor a base URL (exit 2)', async () => {
    const env = { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' };
    const r = await skillcAsync(['build', 'test/fixtures/alfworld', '-o', path.join(scratch, 'nokey'), '--llm', 'openai'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/OPENAI_API_KEY/);
  });
});
