/**
 * What a cold command loads. `skillc query` runs once per task in agents' loops and `skillc lint`
 * as a pre-commit hook, so neither may load what only another path needs: the model client (the
 * openai package, some 200 modules, about 60 ms) only with --embeddings or --llm, ajv only when a
 * schema has no validator compiled into the bundle, and of those only the schema's own module. A
 * resolve hook registered before the CLI starts reports every ES module URL it resolves, and a
 * preloaded script every CommonJS file it requires.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, skillc } from '../helpers/cli.js';
import { scratchDir } from '../helpers/tmp.js';

const MARK = 'skillc-test-resolved ';
let scratch: string;
let dist: string;
let passagesDist: string;
let hook: string;
let preload: string;

beforeAll(() => {
  scratch = scratchDir('startup-modules');
  dist = path.join(scratch, 'dist');
  const r = skillc(['build', 'test/fixtures/retrieval', '-o', dist, '-q']);
  expect(r.code, r.stderr).toBe(0);
  // A library with shared passages: a query of it reads passages.json and validates it.
  passagesDist = path.join(scratch, 'passages-dist');
  const p = skillc(['build', 'test/fixtures/passages', '-o', passagesDist, '-q']);
  expect(p.code, p.stderr).toBe(0);
  preload = path.join(scratch, 'preload.cjs');
  fs.writeFileSync(preload, `const Module = require('node:module');
const { writeSync } = require('node:fs');
const load = Module._load;
Module._load = function (request, parent, isMain) {
  try { writeSync(2, ${JSON.stringify(MARK)} + Module._resolveFilename(request, parent, isMain) + '\\n'); } catch {}
  return load.apply(this, arguments);
};
`);
  hook = path.join(scratch, 'hook.mjs');
  const resolver = `import { writeSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  writeSync(2, ${JSON.stringify(MARK)} + r.url + '\\n');
  return r;
}`;
  fs.writeFileSync(hook, `import { register } from 'node:module';\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(resolver)}`)});\n`);
}, 60_000);

/** The ES module URLs and CommonJS files a CLI run loaded, and its exit code. */
function resolvedBy(args: readonly string[]): { urls: string[]; code: number | null } {
  const r = spawnSync(process.execPath, ['--require', preload, '--import', hook, path.join(ROOT, 'bin', 'skillc.js'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000, env: { ...process.env, NO_COLOR: '1' } });
  const urls = r.stderr.split('\n').filter((l) => l.startsWith(MARK)).map((l) => l.slice(MARK.length));
  return { urls, code: r.status };
}

describe('a cold command loads what its path needs', () => {
  it('query and query --plan load neither the model client nor ajv', () => {
    for (const args of [['query', 'detect intrusions and suspicious beaconing'], ['query', '--plan', '--format', 'json', 'capture packets then detect intrusions']]) {
      const { urls, code } = resolvedBy([...args, '--dist', dist]);
      expect(code).toBe(0);
      // The hook saw the command's own modules: the check below is not vacuous.
      expect(urls.some((u) => /\/build\/bundle\/query-command-[^/]*\.js$/.test(u))).toBe(true);
      expect(urls.filter((u) => /\/node_modules\/(openai|ajv|ajv-formats)\//.test(u))).toEqual([]);
      expect(urls.filter((u) => u.includes('/schema-validators/'))).toEqual([]);
      // The bundle carries ajv's compiler in a chunk of its own (rolldown marks each module's code
      // with its path): no chunk the command loaded holds it.
      const chunks = urls.filter((u) => u.startsWith('file:') && u.includes('/build/bundle/'));
      expect(chunks.filter((u) => fs.readFileSync(new URL(u), 'utf8').includes('node_modules/ajv/dist/compile/'))).toEqual([]);
    }
  });

  it('a query that reads shared passages loads the passages validator alone, and no compiler', () => {
    const { urls, code } = resolvedBy(['query', 'asana automation tasks', '--dist', passagesDist]);
    expect(code).toBe(0);
    expect(urls.filter((u) => u.includes('/schema-validators/')).map((u) => path.basename(u))).toEqual(['passages.cjs']);
    // ajv's runtime helpers may be required by a compiled validator; its compiler and ajv-formats not.
    expect(urls.filter((u) => /\/node_modules\/ajv\/dist\/(2020|ajv|core|compile\/)|\/node_modules\/ajv-formats\//.test(u))).toEqual([]);
  });

  it('lint loads no model client', () => {
    const { urls, code } = resolvedBy(['lint', 'test/fixtures/retrieval']);
    expect(code).not.toBeNull();
    expect(urls.some((u) => /\/build\/bundle\//.test(u))).toBe(true);
    expect(urls.filter((u) => u.includes('/node_modules/openai/'))).toEqual([]);
  });
});
