import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadLibrary, LibraryUnreadableError } from '../../src/load/load-library.js';
import { scratchDir, writeTree } from '../helpers/tmp.js';

const skill = (name: string) => `---\nname: ${name}\ndescription: Does ${name}.\n---\n# ${name}\n`;

describe('loadLibrary', () => {
  it('finds every folder with a SKILL.md, nested ones too, in sorted order', () => {
    const dir = scratchDir('discover');
    writeTree(dir, {
      'zeta/SKILL.md': skill('zeta'),
      'alpha/SKILL.md': skill('alpha'),
      'group/Beta/SKILL.md': skill('beta'),
      'group/beta/SKILL.md': skill('beta'),
      'notes.md': 'not a skill',
    });
    const lib = loadLibrary(dir);
    expect(lib.skills.map((s) => s.path)).toEqual(['alpha', 'group/Beta', 'group/beta', 'zeta']);
    expect(lib.skills[0]!.file).toBe('alpha/SKILL.md');
    expect(lib.diagnostics).toEqual([]);
  });

  it('keeps the text of text files, of text a stray byte makes binary, and not of images', () => {
    const dir = scratchDir('file-text');
    const png = new Uint8Array(4096);
    for (let i = 0; i < png.length; i++) png[i] = (i * 193 + 71) % 256;
    writeTree(dir, {
      'pdf/SKILL.md': skill('pdf'),
      'pdf/assets/template.txt': 'Dear {name}\n',
      'pdf/references/nul.md': '# Setup\u0000\nRun it.\n',
      'pdf/references/latin1.md': new Uint8Array([...Buffer.from('# Caf'), 0xe9, ...Buffer.from('\nRun it.\n')]),
      'pdf/assets/logo.png': png,
    });
    const files = new Map(loadLibrary(dir).skills[0]!.files.map((f) => [f.relPath, f]));
    expect(files.get('assets/template.txt')!.text).toBe('Dear {name}\n');
    expect(files.get('references/nul.md')).toMatchObject({ kind: 'asset', text: '# Setup\u0000\nRun it.\n' });
    expect(files.get('references/latin1.md')).toMatchObject({ kind: 'asset', text: '# Caf\ufffd\nRun it.\n' });
    expect(files.get('assets/logo.png')!.text).toBeUndefined();
  });

  it('classes scripts, references and assets, and gives nested skills their own files', () => {
    const dir = scratchDir('classify');
    writeTree(dir, {
      'pdf/SKILL.md': skill('pdf'),
      'pdf/scripts/extract.py': 'print(1)\n',
      'pdf/scripts/run': '#!/bin/sh\necho hi\n',
      'pdf/references/forms.md': '# Forms\n',
      'pdf/assets/template.txt': 'Dear {name}\n',
      'pdf/logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]),
      'pdf/inner/SKILL.md': skill('inner'),
      'pdf/inner/helper.sh': 'ls\n',
    });
    const lib = loadLibrary(dir);
    const [pdf, inner] = [lib.skills.find((s) => s.path === 'pdf')!, lib.skills.find((s) => s.path === 'pdf/inner')!];
    expect(pdf.files.map((f) => [f.relPath, f.kind])).toEqual([
      ['assets/template.txt', 'asset'],
      ['logo.png', 'asset'],
      ['references/forms.md', 'reference'],
      ['scripts/extract.py', 'script'],
      ['scripts/run', 'script'],
    ]);
    expect(pdf.files.find((f) => f.relPath === 'scripts/extract.py')!.text).toBe('print(1)\n');
    expect(inner.files.map((f) => f.relPath)).toEqual(['helper.sh']);
    expect(lib.diagnostics.map((d) => [d.code, d.file])).toEqual([['SKC121', 'pdf/inner/SKILL.md']]);
  });

  it('records the manifest of inputs with sizes and hashes, sorted', () => {
    const dir = scratchDir('manifest');
    writeTree(dir, { 'b/SKILL.md': skill('b'), 'a/SKILL.md': skill('a'), 'a/x.md': 'x' });
    const lib = loadLibrary(dir);
    expect(lib.inputs.map((i) => i.path)).toEqual(['a/SKILL.md', 'a/x.md', 'b/SKILL.md']);
    expect(lib.inputs[1]).toEqual({ path: 'a/x.md', bytes: 1, sha256: '2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881' });
  });

  it('does not follow a symlink loop, and reports the links', () => {
    const dir = scratchDir('loop');
    writeTree(dir, { 'a/SKILL.md': skill('a') });
    fs.symlinkSync('..', path.join(dir, 'a', 'up'));
    fs.symlinkSync('SKILL.md', path.join(dir, 'a', 'same'));
    fs.symlinkSync('loop2', path.join(dir, 'loop1'));
    fs.symlinkSync('loop1', path.join(dir, 'loop2'));
    const lib = loadLibrary(dir);
    expect(lib.skills.map((s) => s.path)).toEqual(['a']);
    // A link inside the skill is recorded (and recreated in the dist); one out of it is left out.
    expect(lib.skills[0]!.files.find((f) => f.relPath === 'same')).toMatchObject({ kind: 'asset', symlinkTarget: 'SKILL.md' });
    expect(lib.skills[0]!.files.find((f) => f.relPath === 'up')).toBeUndefined();
    expect(lib.diagnostics).toContainEqual(expect.objectContaining({ code: 'SKC102', file: 'a/same', line: 1, column: 1 }));
    expect(lib.diagnostics).toContainEqual(expect.objectContaining({ code: 'SKC125', file: 'a/up', severity: 'warning' }));
  });

  it('leaves out links leading out of the skill, special files and dists inside the library, each with a diagnostic', () => {
    const dir = scratchDir('outside');
    writeTree(dir, { 'a/SKILL.md': skill('a'), 'secret.txt': 'key\n', 'old-dist/manifest.json': '{\n  "format": "skillc-dist",\n  "inputs": []\n}\n', 'old-dist/skills/b/SKILL.md': skill('b') });
    fs.symlinkSync(path.join(dir, 'secret.txt'), path.join(dir, 'a', 'abs-link'));
    fs.symlinkSync('../../secret.txt', path.join(dir, 'a', 'rel-link'));
    fs.symlinkSync('sub/../SKILL.md', path.join(dir, 'a', 'inside'));
    spawnSync('mkfifo', [path.join(dir, 'a', 'pipe.sh')]);
    const lib = loadLibrary(dir);
    expect(lib.skills.map((s) => s.path)).toEqual(['a']);
    expect(lib.skills[0]!.files.map((f) => f.relPath).sort()).toEqual(['inside']);
    const codes = lib.diagnostics.map((d) => [d.code, d.file]);
    expect(codes).toContainEqual(['SKC125', 'a/abs-link']);
    expect(codes).toContainEqual(['SKC125', 'a/rel-link']);
    expect(codes).toContainEqual(['SKC124', 'a/pipe.sh']);
    expect(codes).toContainEqual(['SKC126', 'old-dist']);
  });

  it('reports a SKILL.md that is a directory or a symlink, and a misnamed skill.md', () => {
    const dir = scratchDir('weird');
    fs.mkdirSync(path.join(dir, 'dirskill', 'SKILL.md'), { recursive: true });
    writeTree(dir, { 'real/SKILL.md': skill('real'), 'lower/skill.md': skill('lower') });
    fs.mkdirSync(path.join(dir, 'linked'));
    fs.symlinkSync('../real/SKILL.md', path.join(dir, 'linked', 'SKILL.md'));
    const lib = loadLibrary(dir);
    expect(lib.skills.map((s) => s.path)).toEqual(['real']);
    expect(lib.diagnostics.map((d) => [d.code, d.severity, d.file, d.line, d.column])).toEqual([
      ['SKC101', 'error', 'dirskill/SKILL.md', 1, 1],
      ['SKC102', 'warning', 'linked/SKILL.md', 1, 1],
      ['SKC109', 'warning', 'lower/skill.md', 1, 1],
    ]);
  });

  it('skips a SKILL.md over --max-skill-bytes with a reason', () => {
    const dir = scratchDir('big');
    writeTree(dir, { 'big/SKILL.md': skill('big') + 'x'.repeat(2000), 'ok/SKILL.md': skill('ok') });
    const lib = loadLibrary(dir, { maxSkillBytes: 1000 });
    expect(lib.skills.map((s) => s.path)).toEqual(['ok']);
    expect(lib.skipped).toEqual([{ path: 'big', code: 'SKC108', reason: expect.stringMatching(/over --max-skill-bytes 1000/) }]);
  });

  it('leaves out the excluded output folder and .git', () => {
    const dir = scratchDir('exclude');
    writeTree(dir, { 'a/SKILL.md': skill('a'), 'dist/copy/SKILL.md': skill('copy'), '.git/x/SKILL.md': skill('x') });
    const lib = loadLibrary(dir, { exclude: [path.join(dir, 'dist')] });
    expect(lib.skills.map((s) => s.path)).toEqual(['a']);
  });

  it('treats a library that is itself a skill as the skill "."', () => {
    const dir = scratchDir('rootskill');
    writeTree(dir, { 'SKILL.md': skill('root'), 'scripts/a.py': 'pass\n' });
    const lib = loadLibrary(dir);
    expect(lib.skills.map((s) => [s.path, s.file, s.files.map((f) => f.path)])).toEqual([['.', 'SKILL.md', ['scripts/a.py']]]);
  });

  it('throws LibraryUnreadableError for a missing library or a file', () => {
    const dir = scratchDir('missing');
    expect(() => loadLibrary(path.join(dir, 'nope'))).toThrow(LibraryUnreadableError);
    writeTree(dir, { 'file.md': 'x' });
    expect(() => loadLibrary(path.join(dir, 'file.md'))).toThrow(/not a directory/);
  });
});
