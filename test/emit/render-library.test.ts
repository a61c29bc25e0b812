/**
 * renderLibrary's TypeScript work comes first: contracts/index.d.ts is rendered before the graph,
 * and `afterTypeScript` is called once, before anything else is rendered, so a build can stop its
 * TypeScript worker (about 70 MB) while the graph is built.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderLibrary } from '../../src/emit/library.js';
import { ROOT } from '../helpers/cli.js';
import { loadLibrary } from '../../src/load/load-library.js';
import { runPipeline } from '../../src/passes/driver.js';
import { PASSES } from '../../src/passes/registry.js';
import { loadPolicy } from '../../src/policy/policy.js';

describe('renderLibrary', () => {
  it('renders the declarations, then says it needs TypeScript no more, once', async () => {
    const fixture = path.join(ROOT, 'test/fixtures/cli-automation');
    const { ir } = await runPipeline({ source: loadLibrary(fixture), policy: loadPolicy() }, PASSES);
    let calls = 0;
    const { artifacts } = await renderLibrary(ir, fixture, undefined, { afterTypeScript: () => calls++ });
    expect(calls).toBe(1);
    const dts = artifacts.find((a) => a.path === 'contracts/index.d.ts');
    expect(dts && 'content' in dts && String(dts.content)).toMatch(/export declare function \w+\(/);
  });
});
