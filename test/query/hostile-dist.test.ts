/**
 * skillc query on a damaged or hostile dist: test/fixtures/retrieval is built once into a scratch
 * folder, and each test tampers with a copy of it (graph.json naming a file outside the dist, a
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
import { DistReadError, readDistFile } from '../../src/util/confined-read.js';
import type { GraphDocument } from '../../src/graph/types.js';

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

/** A fresh copy of the built dist (symlinks copied as links), with graph.json edited by `edit`. */
function tampered(edit: (doc: GraphDocument) => void = () => {}): string {
  const copy = path.join(scratch, `copy-${++copies}`);
  fs.cpSync(dist, copy, { recursive: true, verbatimSymlinks: true });
  const file = path.join(copy, 'graph.json');
  const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as GraphDocument;
  edit(doc);
  fs.writeFileSync(file, JSON.stringify(doc));
  return copy;
}

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

describe('a bundle path graph.json names', () => {
  it('leading out of the dist with .. is refused, and /etc/passwd is not printed', () => {
    const r = query(tampered((doc) => setBundle(doc, '../../../../../../../../etc/passwd')));
    expectOneLineError(r, /graph\.json names bundle (\.\.\/){8}etc\/passwd for skill:threat-detection, which is outside the dist$/m);
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

describe('graph.json structure', () => {
  const cases: [string, (doc: GraphDocument) => void, RegExp][] = [
    ['an edge to an unknown node', (doc) => ((doc.edges[0] as { to: string }).to = 'skill:ghost'), /has edge 0 \(dep\) whose target skill:ghost is not a node of the graph/],
    ['an edge from an unknown node', (doc) => ((doc.edges[0] as { from: unknown }).from = 42), /has edge 0 \(dep\) whose source 42 is not a node of the graph/],
    ['a skill node without a bundle', (doc) => void delete (doc.nodes.find((n) => n.id === TARGET) as { bundle?: string }).bundle, /has skill node skill:threat-detection without a string bundle/],
    ['a skill node whose description is a number', (doc) => ((doc.nodes.find((n) => n.id === TARGET) as { description: unknown }).description = 42), /has skill node skill:threat-detection without a string description/],
    ['a skill node without invokes', (doc) => void delete (doc.nodes.find((n) => n.id === TARGET) as { invokes?: string[] }).invokes, /has skill node skill:threat-detection whose invokes is not a list of strings/],
    ['a skill node whose flagged is not a list', (doc) => ((doc.nodes.find((n) => n.id === TARGET) as { flagged?: unknown }).flagged = 'yes'), /has skill node skill:threat-detection whose flagged is not a list of strings/],
    ['a negative edge weight', (doc) => ((doc.edges[0] as { weight: number }).weight = -1), /has edge 0 \(skill:pcap-capture → skill:threat-detection\) with weight -1, not a finite number ≥ 0/],
    ['PPR iterations that would hang every query', (doc) => ((doc.parameters.ppr as { iterations: number }).iterations = 1e9), /has parameter ppr\.iterations = 1000000000, outside 1\.\.1000/],
    ['a lexicon document that is not a skill node', (doc) => ((doc.lexicon.docs as number[])[0] = 10_000), /has lexicon document 0 naming node 10000, which is not a skill node/],
  ];
  for (const [what, edit, message] of cases) {
    it(`${what} is an IndexError at load, and exit 2 from the CLI`, () => {
      const d = tampered(edit);
      expect(() => openRetriever(d)).toThrow(IndexError);
      expect(() => openRetriever(d)).toThrow(message);
      expectOneLineError(query(d), message);
    });
  }

  it('a weight that JSON reads as Infinity (1e999) is refused', () => {
    const d = tampered();
    const file = path.join(d, 'graph.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/"weight":[^,}]+/, '"weight":1e999'));
    expectOneLineError(query(d), /with weight Infinity, not a finite number ≥ 0/);
  });

  it('malformed postings are an IndexError when the term is first read', async () => {
    const d = tampered((doc) => ((doc.lexicon.postings as Record<string, string>)['intrus'] = '0 99 1'));
    const retriever = openRetriever(d);
    await expect(retriever.query(QUERY)).rejects.toThrow(/has malformed postings for the term 'intrus'/);
    expectOneLineError(query(d), /malformed postings for the term 'intrus'/);
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

  it('reads a file of exactly the limit and refuses one byte more', () => {
    const d = tampered();
    fs.writeFileSync(path.join(d, 'exact.md'), 'x'.repeat(100));
    expect(readDistFile(d, 'exact.md', { maxBytes: 100 }).length).toBe(100);
    expect(() => readDistFile(d, 'exact.md', { maxBytes: 99 })).toThrow(/exact\.md is larger than 99 bytes/);
  });
});
