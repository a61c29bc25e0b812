import path from 'node:path';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bundlePath, checkDist, joinRel, missLine, ownFiles, replacedFileName, summaryLine, unfound } from '../../bench/nothing-lost.js';
import { scratchDir, writeTree } from '../helpers/tmp.js';

const sha = (s: string | Uint8Array): string => createHash('sha256').update(s).digest('hex');
const fileRef = (skill: string, relPath: string, content: string) => ({ path: joinRel(skill, relPath), relPath, kind: 'reference', bytes: Buffer.byteLength(content), sha256: sha(content) });

describe('nothing-lost helpers', () => {
  it('unfound: a needle passes when one haystack holds it whole; empty needles always pass', () => {
    const needles = [{ label: 'a', text: 'alpha' }, { label: 'b', text: 'beta' }, { label: 'e', text: '' }, { label: 'x', text: 'phabe' }];
    expect(unfound(needles, ['xx alpha', 'beta yy']).map((n) => n.label)).toEqual(['x']);
    expect(unfound([{ label: 'e', text: '' }], [])).toEqual([]);
  });

  it('unfound stops reading haystacks once everything is found', () => {
    let read = 0;
    function* hays(): Generator<string> {
      for (const h of ['alpha', 'never needed']) {
        read++;
        yield h;
      }
    }
    expect(unfound([{ label: 'a', text: 'alpha' }], hays())).toEqual([]);
    expect(read).toBe(1);
  });

  it('missLine shows the first 60 characters, escaped', () => {
    expect(missLine('f:3 unit u#1', 'a\nb')).toBe('f:3 unit u#1: not found: "a\\nb"');
    expect(missLine('l', 'x'.repeat(70))).toBe(`l: not found: "${'x'.repeat(60)}"…`);
  });

  it('replacedFileName skips names the skill already uses, ignoring case; bundlePath names the root _root', () => {
    expect(replacedFileName(['scripts/a.py'])).toBe('SKILL.replaced.md');
    expect(replacedFileName(['skill.REPLACED.md', 'SKILL.replaced-2.md'])).toBe('SKILL.replaced-3.md');
    expect(bundlePath('a/b')).toBe('bundles/a/b.md');
    expect(bundlePath('.')).toBe('bundles/_root.md');
  });

  it('ownFiles leaves out the folders of nested skills, sorted by code unit', () => {
    const dir = scratchDir('nl-own');
    writeTree(dir, { 'a/SKILL.md': '', 'a/b.md': '', 'a/B.md': '', 'a/refs/x.md': '', 'a/inner/SKILL.md': '', 'a/inner/deep/y.md': '' });
    expect(ownFiles(path.join(dir, 'a'), 'a', new Set(['a/inner'])).map((f) => f.rel)).toEqual(['B.md', 'SKILL.md', 'b.md', 'refs/x.md']);
    expect(ownFiles(dir, '.', new Set(['a'])).map((f) => f.rel)).toEqual([]);
  });
});

describe('checkDist', () => {
  it('reports exactly the lost texts, changed files and rewritten-but-unmarked skills', () => {
    const root = scratchDir('nl-dist');
    const lib = path.join(root, 'lib');
    const dist = path.join(root, 'dist');
    const fm = (n: string) => `---\nname: ${n}\n---\n`;
    const outer = { fm: fm('outer'), u: ['', '# Outer\n\n', '## Step\n\nDo the thing.\n', '## Lost\n\nOnly in the nested folder.\n'] };
    const inner = { fm: fm('inner'), u: ['', '# Inner\n'] };
    const copied = { fm: fm('copied'), u: ['', '# Copied\n'] };
    const md = (s: { fm: string; u: string[] }) => s.fm + s.u.join('');
    writeTree(lib, {
      'outer/SKILL.md': md(outer),
      'outer/references/r.md': 'ref\n',
      'outer/inner/SKILL.md': md(inner),
      'copied/SKILL.md': md(copied),
      'copied/assets/a.txt': 'changed in the library\n',
    });
    const parent = (p: string, s: { fm: string; u: string[] }, refs: ReturnType<typeof fileRef>[]) => ({
      path: p,
      file: joinRel(p, 'SKILL.md'),
      bytes: Buffer.byteLength(md(s)),
      sha256: sha(md(s)),
      frontmatter: { raw: s.fm },
      units: s.u.map((text, index) => ({ id: `${p}#${index}`, index, line: 4 + index, text })),
      scripts: [],
      references: refs,
      assets: [],
    });
    const doc = {
      parents: [
        parent('outer', outer, [fileRef('outer', 'references/r.md', 'ref\n')]),
        parent('copied', copied, [fileRef('copied', 'assets/a.txt', 'original\n')]),
        parent('outer/inner', inner, []),
      ],
      skipped: [],
    };
    writeTree(dist, {
      'parents.json': JSON.stringify(doc),
      'skills/outer/SKILL.md': outer.fm + outer.u[1] + 'invoke(step, {})\n',
      'skills/outer/SKILL.replaced.md': '<!-- replaced -->\n',
      'skills/outer/references/r.md': 'ref\n',
      'skills/outer/inner/SKILL.md': md(inner),
      'skills/outer/inner/notes.md': outer.u[3]!,
      'bundles/outer.md': `header\n\n${outer.u[2]}`,
      'skills/copied/SKILL.md': md(copied) + 'extra\n',
      'skills/copied/assets/a.txt': 'original\n',
    });
    const r = checkDist(dist, lib);
    expect(r.misses).toEqual([missLine('outer/SKILL.md:7 unit outer#3', outer.u[3]!)]);
    expect(r.fileMismatches).toEqual([`copied/assets/a.txt (library): 23 bytes, expected 9`]);
    expect(r.skillMismatches).toEqual(["skills/copied/SKILL.md: no SKILL.replaced.md, but differs from the library's copied/SKILL.md"]);
    expect(summaryLine(r)).toBe('nothing-lost: 3 parents (1 rewritten, 2 copied, 1 bundles), 8 units, 1 misses; 2 files, 1 mismatches; 1 SKILL.md problems; 0 skipped by the build');
  });
});
