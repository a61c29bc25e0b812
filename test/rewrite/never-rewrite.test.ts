/**
 * The passages a call-site never replaces (issue 18), each as a skill of test/fixtures/never-rewrite
 * holding the same eight-line bootstrap block as four plain skills: the plain ones are rewritten
 * (the block becomes the invoke, the prose around it stays), and each case comes out byte for byte
 * as it went in, with its reason. The expected skeletons are also in golden/never-rewrite/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, skillc } from '../helpers/cli.js';
import { scratchDir } from '../helpers/tmp.js';

const LIBRARY = path.join(ROOT, 'test', 'fixtures', 'never-rewrite');
let dist: string;
let dropped: { parent: string; stage: string; reason: string }[];

beforeAll(() => {
  dist = path.join(scratchDir('never-rewrite'), 'dist');
  const r = skillc(['build', LIBRARY, '-o', dist, '-q']);
  expect(r.code, r.stderr).toBe(0);
  dropped = JSON.parse(fs.readFileSync(path.join(dist, 'refactored_library.json'), 'utf8')).dropped_call_sites;
});

const skeleton = (skill: string) => fs.readFileSync(path.join(dist, 'skills', skill, 'SKILL.md'), 'utf8');
const original = (skill: string) => fs.readFileSync(path.join(LIBRARY, skill, 'SKILL.md'), 'utf8');

describe('never rewritten', () => {
  it.each([
    ['warning-avoid', /^a warning or negated passage \('Avoid' in the text before it\)/],
    ['bad-good-pair', /^a warning or negated passage \('❌' in the text before it\)/],
    ['conditional-branch', /^one branch of a condition \('If'\)/],
    ['api-reference', /^a reference section \('Parameters' in its heading\)/],
    ['reference-table', /^its section is reference material \(a parameter table/],
    ['example-output', /^an example with its output \('Output:' next to it\)/],
  ])('%s: the skill comes out as it went in, and the drop says why', (skill, why) => {
    expect(skeleton(skill)).toBe(original(skill));
    const d = dropped.filter((x) => x.parent === skill);
    expect(d.map((x) => x.stage)).toEqual(['never-rewrite']);
    expect(d[0]!.reason).toMatch(why);
  });
});

describe('rewritten', () => {
  it('a plain block becomes its invoke; the sentence before it and the one after stay', () => {
    const text = skeleton('plain-alpha');
    expect(text).toContain('Fetch the helper scripts for the alpha project and check that they work:\n\n`invoke(');
    expect(text).toContain('directory="alpha-helpers"})`\n\nThe helpers live next to the project.\n');
    expect(text).not.toContain('git clone');
    // What an agent reads is the skill as written.
    expect(fs.readFileSync(path.join(dist, 'bundles', 'plain-alpha.md'), 'utf8')).toBe(original('plain-alpha'));
  });
});
