/**
 * Golden tests: build each fixture library with the real CLI and compare every file of dist/ with
 * golden/<name>/. After a deliberate change, update with `npx vitest run test/golden.test.ts -u`
 * and review the diff.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTree, ROOT, skillc } from './helpers/cli.js';
import { scratchDir } from './helpers/tmp.js';

const LIBRARIES: Record<string, string> = {
  examples: 'examples/skills',
  mini: 'test/fixtures/mini',
};

describe.each(Object.entries(LIBRARIES))('golden %s', (name, library) => {
  it('dist/ matches golden/', async () => {
    const out = path.join(scratchDir(`golden-${name}`), 'dist');
    const r = skillc(['build', library, '-o', out, '-q']);
    expect(r.code, r.stderr).toBe(0);
    const tree = readTree(out);
    expect([...tree.keys()]).toMatchSnapshot();
    for (const [rel, bytes] of tree) {
      await expect(bytes.toString('utf8')).toMatchFileSnapshot(path.join(ROOT, 'golden', name, rel));
    }
  });
});
