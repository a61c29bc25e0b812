/**
 * Golden tests: build each fixture library with the real CLI and compare every file of dist/ with
 * golden/<name>/. After a deliberate change, update with `npx vitest run test/golden.test.ts -u`
 * and review the diff. Files that are not UTF-8 are compared by their sha256 (golden/<name>/<file>.sha256).
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTree, ROOT, skillc } from './helpers/cli.js';
import { scratchDir } from './helpers/tmp.js';

const LIBRARIES: Record<string, string> = {
  examples: 'examples/skills',
  mini: 'test/fixtures/mini',
  retrieval: 'test/fixtures/retrieval',
  alfworld: 'test/fixtures/alfworld',
  'cli-automation': 'test/fixtures/cli-automation',
  braces: 'test/fixtures/braces',
  'never-rewrite': 'test/fixtures/never-rewrite',
  passages: 'test/fixtures/passages',
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

describe.each(Object.entries(LIBRARIES))('golden %s', (name, library) => {
  it('dist/ matches golden/', async () => {
    const out = path.join(scratchDir(`golden-${name}`), 'dist');
    const r = skillc(['build', library, '-o', out, '-q']);
    expect(r.code, r.stderr).toBe(0);
    const tree = readTree(out);
    expect([...tree.keys()]).toMatchSnapshot();
    for (const [rel, bytes] of tree) {
      // Text is compared as text; bytes that are not UTF-8 (an image, a Latin-1 skill) by hash.
      let text: string | null = null;
      try {
        text = utf8.decode(bytes);
      } catch {
        text = null;
      }
      if (text !== null) await expect(text).toMatchFileSnapshot(path.join(ROOT, 'golden', name, rel));
      else await expect(`sha256 ${createHash('sha256').update(bytes).digest('hex')}\n`).toMatchFileSnapshot(path.join(ROOT, 'golden', name, `${rel}.sha256`));
    }
  });
});
