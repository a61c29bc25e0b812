import { describe, expect, it } from 'vitest';
import { renderDeclarations } from '../../src/typed/declarations.js';
import { brokenDeclarations, typeCheckInvokes, type CompileDiagnostic, type InvokeCall } from '../../src/typed/type-check.js';
import type { TypeScriptMemo } from '../../src/typed/compile-memo.js';
import type { KeptValues } from '../../src/cache/kept.js';
import { contract, field, installDependencies, resizeImage } from './sample.js';

const contracts = [installDependencies, resizeImage, contract('list-files', [])];
const call = (key: string, id: string, bindings: Record<string, string>): InvokeCall => ({ key, contract: id, bindings });

describe('typeCheckInvokes', () => {
  it('passes valid calls', async () => {
    const errors = await typeCheckInvokes(contracts, [
      call('a', 'install-dependencies', { package: 'python-docx' }),
      call('b', 'install-dependencies', { package: 'pandas', version: '2.2' }),
      call('c', 'resize-image', { input: 'in.png', width: '640', out: 'out.png', 'keep-aspect': 'FALSE' }),
      call('d', 'list-files', {}),
    ]);
    expect(errors).toEqual(new Map());
  });

  it('returns an empty map for no calls', async () => {
    expect(await typeCheckInvokes(contracts, [])).toEqual(new Map());
  });

  it('fails a call that misses a required input', async () => {
    const errors = await typeCheckInvokes(contracts, [call('k', 'install-dependencies', { version: '1.0' })]);
    expect(errors.get('k')).toMatch(/Property 'package' is missing/);
  });

  it('fails a call that passes an input the contract does not have', async () => {
    const errors = await typeCheckInvokes(contracts, [call('k', 'install-dependencies', { package: 'x', colour: 'red' })]);
    expect(errors.get('k')).toMatch(/'"colour"' does not exist in type 'InstallDependenciesInput'/);
  });

  it('fails a call that passes anything to a contract without inputs', async () => {
    const errors = await typeCheckInvokes(contracts, [call('k', 'list-files', { path: '.' })]);
    expect(errors.has('k')).toBe(true);
  });

  it('fails text where an integer belongs, naming the input', async () => {
    const errors = await typeCheckInvokes(contracts, [call('k', 'resize-image', { input: 'a.png', width: 'wide', out: 'b.png' })]);
    expect(errors.get('k')).toMatch(/Type 'string' is not assignable to type 'number'/);
    expect(errors.get('k')).toMatch(/property 'width'/);
  });

  it('fails text where a boolean belongs', async () => {
    const errors = await typeCheckInvokes(contracts, [call('k', 'resize-image', { input: 'a.png', width: '1', out: 'b.png', 'keep-aspect': 'yes' })]);
    expect(errors.get('k')).toMatch(/not assignable to type 'boolean/);
  });

  it('fails a call to an unknown contract without loading the compiler for it', async () => {
    const errors = await typeCheckInvokes(contracts, [call('k', 'no-such-contract', { a: 'b' })]);
    expect(errors).toEqual(new Map([['k', 'unknown contract "no-such-contract"']]));
  });

  it('maps each failure to its own call when several fail', async () => {
    const errors = await typeCheckInvokes(contracts, [
      call('ok-1', 'install-dependencies', { package: 'x' }),
      call('missing', 'resize-image', { input: 'a.png', width: '2' }),
      call('unknown-contract', 'frobnicate', {}),
      call('ok-2', 'resize-image', { input: 'a.png', width: '2', out: 'b.png' }),
      call('nan', 'resize-image', { input: 'a.png', width: 'two', out: 'b.png' }),
      call('extra', 'install-dependencies', { package: 'x', pkg: 'y' }),
      call('ok-3', 'list-files', {}),
    ]);
    expect([...errors.keys()]).toEqual(['missing', 'unknown-contract', 'nan', 'extra']);
    expect(errors.get('missing')).toMatch(/Property 'out' is missing/);
    expect(errors.get('unknown-contract')).toMatch(/unknown contract "frobnicate"/);
    expect(errors.get('nan')).toMatch(/property 'width'/);
    expect(errors.get('extra')).toMatch(/'"pkg"' does not exist/);
  });

  it('keeps the first failure of a key used by several calls', async () => {
    const errors = await typeCheckInvokes(contracts, [
      call('skill', 'install-dependencies', { package: 'x' }),
      call('skill', 'nope', {}),
      call('skill', 'install-dependencies', {}),
    ]);
    expect(errors).toEqual(new Map([['skill', 'unknown contract "nope"']]));
  });

  it('uses given declarations, and throws when they do not compile', async () => {
    const dts = await renderDeclarations(contracts);
    expect(await typeCheckInvokes(contracts, [call('a', 'install-dependencies', { package: 'x' })], dts)).toEqual(new Map());
    await expect(typeCheckInvokes(contracts, [call('a', 'install-dependencies', { package: 'x' })], `${dts}\nexport type Broken = Missing;\n`)).rejects.toThrow(/index\.d\.ts.*Missing/);
  });

  it('checks contracts with awkward ids and field names', async () => {
    const odd = [contract('delete', [field('class', 'string'), field('2nd', 'integer', false)]), contract('3d-render', [field('keep-aspect', 'boolean')])];
    const errors = await typeCheckInvokes(odd, [
      call('ok-1', 'delete', { class: 'x', '2nd': '3' }),
      call('ok-2', '3d-render', { 'keep-aspect': 'true' }),
      call('bad', '3d-render', { 'keep-aspect': 'maybe' }),
    ]);
    expect([...errors.keys()]).toEqual(['bad']);
  });

  it('checks a few hundred calls quickly', async () => {
    const calls = Array.from({ length: 200 }, (_, i) =>
      i % 2 === 0 ? call(`c${i}`, 'install-dependencies', { package: `p${i}` }) : call(`c${i}`, 'resize-image', { input: 'a.png', width: i % 10 === 1 ? 'wide' : String(i), out: 'b.png' }),
    );
    await typeCheckInvokes(contracts, calls.slice(0, 1)); // warm the import
    const start = performance.now();
    const errors = await typeCheckInvokes(contracts, calls);
    const ms = performance.now() - start;
    expect(errors.size).toBe(20);
    expect(ms).toBeLessThan(5000);
  });
});

describe('text from skills cannot break the declarations', () => {
  it('a trigger, a description or a template holding comment markers still compiles', async () => {
    const odd = contract('odd-one', [field('url', 'string', true, '`*/` {@link x} /*')], {
      trigger: '*/ declare const x: number; /*',
      templates: [{ template: 'curl -H "Bearer {{API_KEY}}" {url} */ /*', slots: ['url'], source: 'code', instances: [] }],
    });
    expect(await brokenDeclarations([odd, installDependencies])).toEqual(new Map());
    expect(await typeCheckInvokes([odd], [call('k', 'odd-one', { url: 'https://x' })])).toEqual(new Map());
  });
});

describe('kept compiles and declarations (the build cache)', () => {
  const memoOver = <V>(store: Map<string, V>): KeptValues<V> => ({ get: (k) => store.get(k), put: (k, v) => void store.set(k, v) });

  it('keeps what it computes, gives the same answers from it, and uses what is kept', async () => {
    const compiles = new Map<string, readonly CompileDiagnostic[]>();
    const declarations = new Map<string, string>();
    const memo: TypeScriptMemo = { compiles: memoOver(compiles), declarations: memoOver(declarations) };
    const calls = [call('ok', 'install-dependencies', { package: 'x' }), call('bad', 'install-dependencies', { version: '1.0' })];
    const fresh = await typeCheckInvokes(contracts, calls);
    expect(await typeCheckInvokes(contracts, calls, undefined, memo)).toEqual(fresh);
    expect(compiles.size).toBe(1);
    expect(declarations.size).toBe(1);
    expect(await typeCheckInvokes(contracts, calls, undefined, memo)).toEqual(fresh);
    expect(await renderDeclarations(contracts, memo.declarations)).toBe(await renderDeclarations(contracts));
    // What is kept is what answers: a kept compile without errors passes the bad call.
    for (const k of compiles.keys()) compiles.set(k, []);
    expect(await typeCheckInvokes(contracts, calls, undefined, memo)).toEqual(new Map());
    for (const k of declarations.keys()) declarations.set(k, 'kept text');
    expect(await renderDeclarations([...contracts].reverse(), memo.declarations)).toBe('kept text');
  });

  it('brokenDeclarations answers the same through the memo, and from what is kept', async () => {
    const compiles = new Map<string, readonly CompileDiagnostic[]>();
    const memo: TypeScriptMemo = { compiles: memoOver(compiles), declarations: memoOver(new Map()) };
    expect(await brokenDeclarations(contracts, memo)).toEqual(await brokenDeclarations(contracts));
    expect(compiles.size).toBe(1);
    // Kept compiles that failed (of all the contracts, and of each alone): every contract is broken, for the kept reason.
    for (const c of contracts) await brokenDeclarations([c], memo);
    expect(compiles.size).toBe(1 + contracts.length);
    const failing = [{ file: '/index.d.ts', line: 1, message: 'kept error', related: [] }];
    for (const k of compiles.keys()) compiles.set(k, failing);
    expect(await brokenDeclarations(contracts, memo)).toEqual(new Map(contracts.map((c) => [c.id, 'kept error'])));
  });
});
