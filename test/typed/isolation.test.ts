/**
 * One contract whose declaration does not compile (simulated here: the renderer emits broken text
 * for it, as a skillc bug would) costs that contract only: brokenDeclarations names it, and the
 * calls to the other contracts are still checked, instead of the whole bind pass failing.
 */
import { describe, expect, it, vi } from 'vitest';
import { contract, field, installDependencies } from './sample.js';

vi.mock('../../src/typed/declarations.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/typed/declarations.js')>();
  return {
    ...real,
    renderDeclarations: async (cs: Parameters<typeof real.renderDeclarations>[0]) => {
      const text = await real.renderDeclarations(cs);
      return cs.some((c) => c.id === 'broken-one') ? `${text}\nexport declare function (;\n` : text;
    },
  };
});

const { brokenDeclarations, typeCheckInvokes } = await import('../../src/typed/type-check.js');

describe('a contract whose declaration does not compile', () => {
  const broken = contract('broken-one', [field('x', 'string')]);

  it('is found on its own, and only it', async () => {
    const bad = await brokenDeclarations([installDependencies, broken]);
    expect([...bad.keys()]).toEqual(['broken-one']);
  });

  it('fails its own calls with the reason; calls to the others are still checked', async () => {
    const errors = await typeCheckInvokes([installDependencies, broken], [
      { key: 'good', contract: 'install-dependencies', bindings: { package: 'pandas' } },
      { key: 'missing', contract: 'install-dependencies', bindings: {} },
      { key: 'b', contract: 'broken-one', bindings: { x: '1' } },
    ]);
    expect(errors.get('good')).toBeUndefined();
    expect(errors.get('missing')).toMatch(/Property 'package' is missing/);
    expect(errors.get('b')).toMatch(/^the declaration of broken-one does not compile: /);
  });
});
