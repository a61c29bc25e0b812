/**
 * The TypeScript worker (typed/ts-worker-host.ts) prints declarations and compiles invokes in a
 * thread, for the main thread's renderDeclarations and typeCheckInvokes. A worker needs the
 * compiled modules, so these tests drive build/src in child processes: the same requests made with
 * the worker and on the main thread must give the same texts, diagnostics and errors, with the
 * main thread never loading TypeScript; a worker stopped with requests pending hands them back.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { contract, field, installDependencies, resizeImage } from './sample.js';

const at = (m: string) => JSON.stringify(path.join(ROOT, 'build', 'src', m));
const contracts = [installDependencies, resizeImage, contract('list-files', []), contract('Odd name */ with "quotes"', [field('a b', 'string')])];
const calls = [
  { key: 'ok', contract: 'install-dependencies', bindings: { package: 'python-docx' } },
  { key: 'missing', contract: 'install-dependencies', bindings: { version: '1.0' } },
  { key: 'extra', contract: 'list-files', bindings: { path: '.' } },
  { key: 'number', contract: 'resize-image', bindings: { input: 'a.png', width: 'wide', out: 'b.png' } },
  { key: 'unknown', contract: 'no-such-contract', bindings: {} },
];

/** Runs the requests in a child process, with or without the worker; what it printed last, parsed. */
function run(withWorker: boolean, stopEarly = false): { dts: string; errors: [string, string][]; duplicate: string; typeScriptOnMain: boolean; usedWorker: boolean } {
  const script = `
    import { createRequire } from 'node:module';
    import { renderDeclarations } from ${at('typed/declarations.js')};
    import { typeCheckInvokes } from ${at('typed/type-check.js')};
    import { startTypeScriptWorker } from ${at('typed/ts-worker-host.js')};
    import { remoteTypeScriptEngine } from ${at('typed/engine.js')};
    const contracts = ${JSON.stringify(contracts)};
    const calls = ${JSON.stringify(calls)};
    const worker = ${withWorker} ? startTypeScriptWorker() : null;
    const usedWorker = remoteTypeScriptEngine() !== null;
    const pending = renderDeclarations(contracts);
    if (${stopEarly}) worker.stop();
    const dts = await pending;
    const errors = [...(await typeCheckInvokes(contracts, calls))];
    let duplicate = '';
    try { await renderDeclarations([contracts[0], contracts[0]]); } catch (e) { duplicate = e instanceof Error ? e.message : 'not an Error'; }
    worker?.stop();
    const typeScriptOnMain = Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('ts-morph') || k.includes('typescript.js'));
    console.log(JSON.stringify({ dts, errors, duplicate, typeScriptOnMain, usedWorker }));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: ROOT });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

describe('the TypeScript worker', () => {
  it('gives the declarations, invoke errors and thrown messages of the main thread, without TypeScript on the main thread', () => {
    const here = run(false);
    const there = run(true);
    expect(here.usedWorker).toBe(false);
    expect(here.typeScriptOnMain).toBe(true);
    expect(there.usedWorker).toBe(true);
    expect(there.typeScriptOnMain).toBe(false);
    expect(there.dts).toBe(here.dts);
    expect(there.dts).toContain('export declare function installDependencies');
    expect(there.errors).toEqual(here.errors);
    expect(new Map(there.errors).get('missing')).toMatch(/Property 'package' is missing/);
    expect(there.errors.map(([k]) => k).sort()).toEqual(['extra', 'missing', 'number', 'unknown']);
    expect(there.duplicate).toBe(here.duplicate);
    expect(there.duplicate).toMatch(/two contracts have the id "install-dependencies"/);
  });

  it('does not keep the process alive while no request is pending', () => {
    // Found by a review: a 'message' listener added after unref() refs the worker again.
    const script = `
      import { startTypeScriptWorker } from ${at('typed/ts-worker-host.js')};
      console.log(startTypeScriptWorker() === null ? 'no worker' : 'started');
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: ROOT, timeout: 20_000 });
    expect(r.stdout.trim()).toBe('started');
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
  });

  it('hands a request pending when it is stopped back to the main thread', () => {
    const here = run(false);
    const stopped = run(true, true);
    expect(stopped.usedWorker).toBe(true);
    expect(stopped.dts).toBe(here.dts);
    expect(stopped.errors).toEqual(here.errors);
    expect(stopped.typeScriptOnMain).toBe(true);
  });
});
