/**
 * skillc query on a damaged or hostile dist: test/fixtures/retrieval is built once into a scratch
 * folder, and each test tampers with a copy of it (the index naming a file outside the dist, a
 * bundle that is a symlink out, a FIFO, a folder or missing, edges to unknown nodes, parameters
 * that would hang a query). Every case must be one line on stderr and exit 2: no file outside the
 * dist printed, no hang, no stack trace.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, skillc, type CliResult } from '../helpers/cli.js';
import { scratchDir } from '../helpers/tmp.js';
import { IndexError } from '../../src/query/graph-index.js';
import { openRetriever } from '../../src/query/retriever.js';
import { loadSharedSections } from '../../src/query/shared-sections.js';
import { DistReadError, readDistFile } from '../../src/util/confined-read.js';
import type { GraphDocument } from '../../src/graph/types.js';
import { CORE_FILE, encodeQueryIndex, HEADER_BYTES, NODES_FILE, POSTINGS_FILE, type QueryIndexCore } from '../../src/graph/query-index.js';

const TARGET = 'skill:threat-detection';
const QUERY = 'detect intrusions and suspicious beaconing';
const posix = process.platform !== 'win32';

let scratch: string;
let dist: string;
let copies = 0;

beforeAll(() => {
  scratch = scratchDir('hostile-dist');
  dist = path.join(scratch, 'dist');
  const r = skillc(['build', 'test/fixtures/retrieval', '-o', dist, '-q']);
  expect(r.code, r.stderr).toBe(0);
}, 60_000);

/**
 * A fresh copy of the built dist (symlinks copied as links) whose graph is edited by `edit` and
 * whose query index (index/, what a query reads) is then written again from it, as a build would,
 * and edited by `editCore`: an index that is consistent in itself but says what the test wants.
 */
function tampered(edit: (doc: GraphDocument) => void = () => {}, editCore: (core: Mutable<QueryIndexCore>) => void = () => {}): string {
  const copy = path.join(scratch, `copy-${++copies}`);
  fs.cpSync(dist, copy, { recursive: true, verbatimSymlinks: true });
  const file = path.join(copy, 'graph.json');
  const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as GraphDocument;
  edit(doc);
  fs.writeFileSync(file, JSON.stringify(doc));
  const index = encodeQueryIndex(doc);
  const core = JSON.parse(JSON.stringify(index.core)) as Mutable<QueryIndexCore>;
  editCore(core);
  fs.writeFileSync(path.join(copy, CORE_FILE), JSON.stringify(core));
  fs.writeFileSync(path.join(copy, NODES_FILE), index.nodes);
  fs.writeFileSync(path.join(copy, POSTINGS_FILE), index.postings);
  return copy;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] extends readonly (infer U)[] ? U[] : T[K] extends object ? Mutable<T[K]> : T[K] };

function setBundle(doc: GraphDocument, bundle: string): void {
  const node = doc.nodes.find((n) => n.id === TARGET)!;
  (node as { bundle: string }).bundle = bundle;
}

/** The CLI with a time limit: a read that blocks (a FIFO, /dev/zero) must fail the test, not hang it. */
function query(d: string, args: readonly string[] = []): CliResult & { readonly ms: number } {
  const started = Date.now();
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'skillc.js'), 'query', QUERY, '--dist', d, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 20_000, env: { ...process.env, NO_COLOR: '1', CI: '1' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, ms: Date.now() - started };
}

/** One line `skillc query: …`, exit 2, nothing on stdout, no stack trace. */
function expectOneLineError(r: CliResult, message: RegExp): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(/^skillc query: [^\n]*\n$/);
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
}

describe('a bundle path the index names', () => {
  it('leading out of the dist with .. is refused, and /etc/passwd is not printed', () => {
    const r = query(tampered((doc) => setBundle(doc, '../../../../../../../../etc/passwd')));
    expectOneLineError(r, /index\/nodes\.jsonl names bundle (\.\.\/){8}etc\/passwd for skill:threat-detection, which is outside the dist$/m);
    expect(r.stdout).not.toContain('root:');
  });

  it('that is absolute is refused', () => {
    const r = query(tampered((doc) => setBundle(doc, '/etc/passwd')));
    expectOneLineError(r, /names bundle \/etc\/passwd for skill:threat-detection, which is outside the dist \(an absolute path\)/);
    expect(r.stdout).not.toContain('root:');
  });

  it.skipIf(!posix)('that is a symlink to /dev/zero is refused at once, without reading it', () => {
    const d = tampered();
    const bundle = path.join(d, 'skills', 'threat-detection', 'SKILL.md');
    fs.rmSync(bundle);
    fs.symlinkSync('/dev/zero', bundle);
    const r = query(d);
    expectOneLineError(r, /names bundle skills\/threat-detection\/SKILL\.md for skill:threat-detection, which leads outside the dist through a symbolic link/);
    expect(r.ms).toBeLessThan(10_000);
  });

  it.skipIf(!posix)('that is a FIFO inside the dist is refused without waiting for a writer', () => {
    const d = tampered();
    const bundle = path.join(d, 'skills', 'threat-detection', 'SKILL.md');
    fs.rmSync(bundle);
    expect(spawnSync('mkfifo', [bundle]).status).toBe(0);
    const r = query(d);
    expectOneLineError(r, /which is not a regular file \(a FIFO, socket or device\)/);
    expect(r.ms).toBeLessThan(10_000);
  });

  it('that is a folder is refused (no EISDIR)', () => {
    const r = query(tampered((doc) => setBundle(doc, 'skills')));
    expectOneLineError(r, /names bundle skills for skill:threat-detection, which is a folder, not a file/);
    expect(r.stderr).not.toContain('EISDIR');
  });

  it('that does not exist is refused (no ENOENT)', () => {
    const d = tampered();
    fs.rmSync(path.join(d, 'skills', 'threat-detection', 'SKILL.md'));
    const r = query(d);
    expectOneLineError(r, /names bundle skills\/threat-detection\/SKILL\.md for skill:threat-detection, which does not exist/);
    expect(r.stderr).not.toContain('ENOENT');
  });

  it('that is larger than 64 MiB is refused (a sparse file: the size is checked before reading)', () => {
    const d = tampered();
    fs.truncateSync(path.join(d, 'skills', 'threat-detection', 'SKILL.md'), 64 * 1024 * 1024 + 1);
    expectOneLineError(query(d), /which is larger than 64 MiB \(67108865 bytes\)/);
  });

  it('edited since the build is counted as it is now: the answer keeps its budget', () => {
    const d = tampered();
    fs.appendFileSync(path.join(d, 'skills', 'threat-detection', 'SKILL.md'), `${'beaconing intrusion words '.repeat(40_000)}APPENDED-END\n`);
    const r = query(d, ['--budget', '2000']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('APPENDED-END');
    expect(r.stdout.length).toBeLessThan(2000 * 8);
  });

  it('that leaves a fence open is closed before the next hit', () => {
    const d = tampered();
    fs.appendFileSync(path.join(d, 'skills', 'threat-detection', 'SKILL.md'), '\n```bash\ntshark -r capture.pcap\n');
    const r = query(d, ['-k', '3']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('tshark -r capture.pcap');
    const fences = r.stdout.split('\n').filter((l) => /^ {0,3}```/.test(l));
    expect(fences.length % 2).toBe(0);
  });

  it('that is a symlink staying inside the dist is read (the documented choice)', () => {
    const d = tampered();
    const bundle = path.join(d, 'skills', 'threat-detection', 'SKILL.md');
    fs.rmSync(bundle);
    fs.symlinkSync(path.join('..', 'pcap-capture', 'SKILL.md'), bundle);
    const r = query(d, ['-k', '1']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('name: pcap-capture');
  });
});

describe('query index structure', () => {
  const node = (doc: GraphDocument) => doc.nodes.find((n) => n.id === TARGET) as unknown as Record<string, unknown>;
  // core.json is checked whole when the index is loaded.
  const atLoad: [string, (core: Mutable<QueryIndexCore>) => void, RegExp][] = [
    ['an edge to an unknown node', (core) => (core.edges.to[0] = 10_000), /core\.json has edge 0 \(dep\) whose target 10000 is not a node of the graph/],
    ['an edge from an unknown node', (core) => (core.edges.from[0] = -1), /has edge 0 \(dep\) whose source -1 is not a node of the graph/],
    ['an edge of an unknown type', (core) => (core.edges.type[0] = 9), /has edge 0 of unknown type 9/],
    ['a negative edge weight', (core) => (core.edges.weight[0] = -1), /has edge 0 \(dep\) \(skill:pcap-capture → skill:threat-detection\) with weight -1, not a finite number ≥ 0/],
    ['PPR iterations that would hang every query', (core) => ((core.parameters.ppr as { iterations: number }).iterations = 1e9), /has parameter ppr\.iterations = 1000000000, outside 1\.\.1000/],
    ['a lexicon document that is not a skill node', (core) => (core.docs[0] = 10_000), /has lexicon document 0 naming node 10000, which is not a skill node/],
    ['record offsets out of order', (core) => (core.records[2] = 0), /has record offsets that are not \d+ ascending whole numbers/],
    ['a term directory out of order', (core) => core.terms.first.reverse(), /has a term directory whose first terms are not strings in ascending order/],
    ['two nodes with one id', (core) => (core.nodes[1] = core.nodes[0]!), /has two nodes with one id/],
    ['feedback from more hits than a query should read', (core) => ((core.parameters.feedback as { docs: number }).docs = 1e6), /has parameter feedback\.docs = 1000000, outside 1\.\.100/],
    ['a feedback count written as a string', (core) => ((core.parameters.feedback as unknown as { docs: string }).docs = '5'), /has parameter feedback\.docs = "5", not a number/],
    ['feedback terms that are not counted in whole numbers', (core) => ((core.parameters.feedback as { terms: number }).terms = 2.5), /has a non-integer feedback document or term count/],
  ];
  for (const [what, edit, message] of atLoad) {
    it(`${what} is an IndexError at load, and exit 2 from the CLI`, () => {
      const d = tampered(undefined, edit);
      expect(() => openRetriever(d)).toThrow(IndexError);
      expect(() => openRetriever(d)).toThrow(message);
      expectOneLineError(query(d), message);
    });
  }

  // A node's record is checked when a query first reads it.
  const whenRead: [string, (doc: GraphDocument) => void, RegExp][] = [
    ['a skill node without a bundle', (doc) => void delete node(doc).bundle, /nodes\.jsonl has skill node skill:threat-detection without a string bundle/],
    ['a skill node whose description is a number', (doc) => (node(doc).description = 42), /has skill node skill:threat-detection without a string description/],
    ['a skill node without invokes', (doc) => void delete node(doc).invokes, /has skill node skill:threat-detection whose invokes is not a list of strings/],
    ['a skill node whose flagged is not a list', (doc) => (node(doc).flagged = 'yes'), /has skill node skill:threat-detection whose flagged is not a list of strings/],
    ['a skill node with a negative feedback weight', (doc) => (node(doc).terms = [['pcap', -1]]), /has skill node skill:threat-detection whose terms are not at most 100 \[term, weight ≥ 0\] pairs/],
    ['a skill node without feedback terms', (doc) => void delete node(doc).terms, /has skill node skill:threat-detection whose terms are not at most 100 \[term, weight ≥ 0\] pairs/],
  ];
  for (const [what, edit, message] of whenRead) {
    it(`${what} is an IndexError when its record is read, and exit 2 from the CLI`, async () => {
      const d = tampered(edit);
      await expect(openRetriever(d).query(QUERY)).rejects.toThrow(message);
      expectOneLineError(query(d), message);
    });
  }

  it('a weight that JSON reads as Infinity (1e999) is refused', () => {
    const d = tampered();
    const file = path.join(d, CORE_FILE);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/"weight":\[[^,\]]+/, '"weight":[1e999'));
    expectOneLineError(query(d), /with weight Infinity, not a finite number ≥ 0/);
  });

  it('postings with a token that is not a whole number are malformed (Number("") would read 0)', async () => {
    const d = tampered((doc) => ((doc.lexicon.postings as Record<string, string>)['intrus'] = doc.lexicon.postings['intrus']!.replace(/ \d+$/, ' 1.9')));
    await expect(openRetriever(d).query(QUERY)).rejects.toThrow(/postings\.txt has malformed postings for the term 'intrus'/);
  });

  it('malformed postings are an IndexError when the term is first read', async () => {
    const d = tampered((doc) => ((doc.lexicon.postings as Record<string, string>)['intrus'] = '0 99 1'));
    const retriever = openRetriever(d);
    await expect(retriever.query(QUERY)).rejects.toThrow(/postings\.txt has malformed postings for the term 'intrus'/);
    expectOneLineError(query(d), /malformed postings for the term 'intrus'/);
  });

  it('record offsets that point at another node\'s record are refused, not answered from', () => {
    // Two records swapped in nodes.jsonl and the offsets moved with them: every range is one
    // whole line and the sizes agree, so only the record's id can tell.
    const d = tampered();
    const core = JSON.parse(fs.readFileSync(path.join(d, CORE_FILE), 'utf8')) as Mutable<QueryIndexCore>;
    const file = path.join(d, NODES_FILE);
    const bytes = fs.readFileSync(file);
    const i = core.nodes.indexOf(TARGET);
    expect(i).toBeGreaterThan(0);
    const [a, b, c] = [core.records[i - 1]!, core.records[i]!, core.records[i + 1]!];
    fs.writeFileSync(file, Buffer.concat([bytes.subarray(0, a), bytes.subarray(b, c), bytes.subarray(a, b), bytes.subarray(c)]));
    core.records[i] = a + (c - b);
    fs.writeFileSync(path.join(d, CORE_FILE), JSON.stringify(core));
    expectOneLineError(query(d), /nodes\.jsonl has the record of skill:\S+ where node skill:threat-detection should be/);
  });

  it('a postings file that is shorter than its directory says, or holds other terms, is refused', () => {
    const short = tampered();
    const file = path.join(short, POSTINGS_FILE);
    fs.writeFileSync(file, fs.readFileSync(file).subarray(0, 100));
    expectOneLineError(query(short), /postings\.txt has 100 bytes where \S+core\.json expects \d+/);

    // A line put in after the header, the same size in all: block 0 no longer starts with its term.
    const shifted = tampered();
    const other = path.join(shifted, POSTINGS_FILE);
    const text = fs.readFileSync(other, 'utf8');
    fs.writeFileSync(other, (text.slice(0, HEADER_BYTES) + 'aaa\t0 0 1\n' + text.slice(HEADER_BYTES)).slice(0, text.length));
    expectOneLineError(query(shifted), /postings\.txt does not hold the terms the directory of \S+core\.json places in block 0/);
  });

  it('a block boundary moved by a whole line is refused when the block is read', () => {
    const d = tampered();
    const core = JSON.parse(fs.readFileSync(path.join(d, CORE_FILE), 'utf8')) as Mutable<QueryIndexCore>;
    const text = fs.readFileSync(path.join(d, POSTINGS_FILE), 'utf8');
    const block0 = text.slice(core.terms.offsets[0]!, core.terms.offsets[1]!);
    const lastLine = block0.slice(block0.slice(0, -1).lastIndexOf('\n') + 1);
    core.terms.offsets[1] = core.terms.offsets[1]! - Buffer.byteLength(lastLine);
    fs.writeFileSync(path.join(d, CORE_FILE), JSON.stringify(core));
    // Block 0 would still be whole lines of its own terms, in order; what follows it gives it away.
    expect(() => openRetriever(d).index.postings(core.terms.first[0]!)).toThrow(/postings\.txt does not hold the terms the directory of \S+core\.json places in block 0/);
  });

  it('index files of another build (another id) are refused, not read together', () => {
    const d = tampered();
    const other = tampered((doc) => ((doc.nodes.find((n) => n.id === TARGET) as { description: string }).description = 'another build'));
    fs.copyFileSync(path.join(other, NODES_FILE), path.join(d, NODES_FILE));
    expectOneLineError(query(d), /nodes\.jsonl does not belong to the index [0-9a-f]{16} of \S+core\.json \(a file of another build\?\)/);
  });

  it.skipIf(!posix)('an index file that is a symlink out of the dist is refused', () => {
    const d = tampered();
    fs.rmSync(path.join(d, NODES_FILE));
    fs.symlinkSync('/etc/passwd', path.join(d, NODES_FILE));
    const r = query(d);
    expectOneLineError(r, /nodes\.jsonl leads outside the dist through a symbolic link/);
    expect(r.stdout).not.toContain('root:');
  });

  it('a dist without the index (built by an older skillc) says to rebuild', () => {
    const d = tampered();
    fs.rmSync(path.join(d, 'index'), { recursive: true });
    expectOneLineError(query(d), /has no index\/core\.json: rebuild the library with this skillc/);
  });

  it('the untampered dist still answers (the checks pass a real build)', () => {
    const r = query(tampered());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('# 1. threat-detection');
  });
});

describe('readDistFile', () => {
  const problem = (rel: string, maxBytes = 1024): string => {
    try {
      readDistFile(dist, rel, { maxBytes });
      return 'read';
    } catch (err) {
      expect(err).toBeInstanceOf(DistReadError);
      return (err as DistReadError).problem;
    }
  };

  it('refuses paths that are not plain relative paths inside the dist', () => {
    expect(problem('')).toBe('not-relative');
    expect(problem('graph.json\0.md')).toBe('not-relative');
    expect(problem('/etc/passwd')).toBe('outside');
    expect(problem('../dist/graph.json')).toBe('outside');
    expect(problem('skills/../../dist/graph.json')).toBe('outside');
    expect(problem('.')).toBe('folder');
    expect(problem('skills/threat-detection/SKILL.md')).toBe('read');
  });

  it('a passages.json that is not one (a null passage or member) is a damaged dist, not a null read', () => {
    for (const doc of ['{"passages":[null]}', '{"passages":[{"id":"x","heading":"h","members":[null]}]}']) {
      const d = path.join(scratchDir('passages-json'), `d${copies++}`);
      fs.mkdirSync(d, { recursive: true });
      fs.writeFileSync(path.join(d, 'passages.json'), doc);
      expect(() => loadSharedSections(d)).toThrow(IndexError);
      expect(() => loadSharedSections(d)).toThrow(/passages\.json is not a passages file of this skillc/);
    }
  });

  it('reads a file of exactly the limit and refuses one byte more', () => {
    const d = tampered();
    fs.writeFileSync(path.join(d, 'exact.md'), 'x'.repeat(100));
    expect(readDistFile(d, 'exact.md', { maxBytes: 100 }).length).toBe(100);
    expect(() => readDistFile(d, 'exact.md', { maxBytes: 99 })).toThrow(/exact\.md is larger than 99 bytes/);
  });
});
