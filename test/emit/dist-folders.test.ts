/**
 * A new dist made ahead of the write (emit/dist-folders.ts): writeDist writes into it, keeps only
 * the copies that are the artifacts of their paths and the folders that hold something, and the
 * dist is then the one a write from nothing gives. The worker itself runs the compiled module (a
 * worker needs JavaScript), so its test drives build/src in a child process.
 */
import crypto from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { scratchDir } from '../helpers/tmp.js';
import { ROOT, skillc } from '../helpers/cli.js';
import type { Artifact } from '../../src/emit/json-artifact.js';
import { DISCARD_MARKER, INCOMPLETE_MARKER, newSibling, OutputWriteError, recoverOutput, writeDist } from '../../src/emit/write-dist.js';

const sha = (bytes: string | Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

/** Every entry under `dir`: path, kind, mode and, for files, content. */
function tree(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).map(String).sort().map((rel) => {
    const p = path.join(dir, rel);
    const st = fs.lstatSync(p);
    return `${rel} ${st.isDirectory() ? 'dir' : 'file'} ${(st.mode & 0o777).toString(8)}${st.isFile() ? ` ${sha(fs.readFileSync(p))}` : ''}`;
  });
}

/** A library with two skill files and the artifacts a build would give for them. */
function library(box: string): { artifacts: Artifact[]; source: { a: string; run: string; b: string } } {
  const lib = path.join(box, 'lib');
  fs.mkdirSync(path.join(lib, 'a', 'scripts'), { recursive: true });
  fs.mkdirSync(path.join(lib, 'b'), { recursive: true });
  fs.writeFileSync(path.join(lib, 'a', 'SKILL.md'), '# a\n');
  fs.writeFileSync(path.join(lib, 'a', 'scripts', 'run.sh'), 'echo a\n', { mode: 0o755 });
  fs.writeFileSync(path.join(lib, 'b', 'SKILL.md'), '# b\n');
  const source = { a: path.join(lib, 'a', 'SKILL.md'), run: path.join(lib, 'a', 'scripts', 'run.sh'), b: path.join(lib, 'b', 'SKILL.md') };
  const artifacts: Artifact[] = [
    { path: 'skills/a/SKILL.md', copyFrom: source.a, sha256: sha('# a\n') },
    { path: 'skills/a/scripts/run.sh', copyFrom: source.run, sha256: sha('echo a\n'), mode: 0o755 },
    // b was rewritten: its SKILL.md is content now, not a copy.
    { path: 'skills/b/SKILL.md', content: '# b, rewritten\n' },
    { path: 'bundles/b.md', content: '# b\n' },
    { path: 'report.md', content: 'report\n' },
  ];
  return { artifacts, source };
}

describe('a dist made ahead of the write', () => {
  it('is written into, keeps only what the artifacts are, and equals a dist written from nothing', () => {
    const box = scratchDir('dist-folders');
    const { artifacts, source } = library(box);
    const plain = path.join(box, 'plain');
    writeDist(plain, artifacts);

    const out = path.join(box, 'dist');
    const dist = newSibling(out);
    fs.mkdirSync(dist);
    fs.writeFileSync(path.join(dist, INCOMPLETE_MARKER), 'x\n');
    // Folders: some the write needs, some it does not (skills/gone and its child).
    const folders = ['bundles', 'skills', 'skills/a', 'skills/b', 'skills/gone', 'skills/gone/deeper'];
    for (const f of folders) fs.mkdirSync(path.join(dist, f));
    // Copies: one that is its path's artifact, one of a path whose artifact is content now, one of
    // a path with no artifact at all.
    fs.copyFileSync(source.a, path.join(dist, 'skills/a/SKILL.md'));
    fs.copyFileSync(source.b, path.join(dist, 'skills/b/SKILL.md'));
    fs.writeFileSync(path.join(dist, 'skills/gone/deeper/x.md'), 'x\n');
    const copies = new Map([
      ['skills/a/SKILL.md', { path: 'skills/a/SKILL.md', copyFrom: source.a, sha256: sha('# a\n') }],
      ['skills/b/SKILL.md', { path: 'skills/b/SKILL.md', copyFrom: source.b, sha256: sha('# b\n') }],
      ['skills/gone/deeper/x.md', { path: 'skills/gone/deeper/x.md', copyFrom: source.b, sha256: sha('x\n') }],
    ]);
    // The kept copy is not copied again: an inode that changes would say so.
    const keptInode = fs.statSync(path.join(dist, 'skills/a/SKILL.md')).ino;

    writeDist(out, artifacts, { prepared: { dist, folders, copies } });
    expect(tree(out)).toEqual(tree(plain));
    expect(fs.statSync(path.join(out, 'skills/a/SKILL.md')).ino).toBe(keptInode);
    expect(fs.existsSync(dist)).toBe(false);
    expect(fs.readdirSync(box).filter((n) => n.includes('skillc-'))).toEqual([]);
  });

  it('is not used, nor removed, when it is not a partial dist (no marker)', () => {
    const box = scratchDir('dist-folders-unmarked');
    const { artifacts } = library(box);
    const out = path.join(box, 'dist');
    const dist = newSibling(out);
    fs.mkdirSync(path.join(dist, 'skills'), { recursive: true });
    fs.writeFileSync(path.join(dist, 'skills', 'mine.md'), 'not skillc\'s\n');
    writeDist(out, artifacts, { prepared: { dist, folders: ['skills'], copies: new Map() } });
    expect(fs.existsSync(path.join(out, 'skills', 'mine.md'))).toBe(false);
    expect(fs.readFileSync(path.join(dist, 'skills', 'mine.md'), 'utf8')).toBe('not skillc\'s\n');
  });

  it('is made by the worker: its folders and copies are the layout\'s, and the write then gives the same dist', () => {
    const box = scratchDir('dist-folders-worker');
    const at = (m: string) => JSON.stringify(path.join(ROOT, 'build', 'src', m));
    const script = `
      import fs from 'node:fs';
      import path from 'node:path';
      import { loadLibrary } from ${at('load/load-library.js')};
      import { parseOne } from ${at('passes/parse.js')};
      import { parentLayout, renderLibrary } from ${at('emit/library.js')};
      import { prepareDist } from ${at('emit/dist-folders.js')};
      import { INCOMPLETE_MARKER, writeDist } from ${at('emit/write-dist.js')};
      const root = ${JSON.stringify(path.join(ROOT, 'examples', 'skills'))};
      const parents = loadLibrary(root).skills.map((s) => parseOne(s).parent).filter(Boolean);
      const ir = { parents };
      const layout = parentLayout(ir, root);
      const { artifacts } = await renderLibrary(ir, root);
      const box = ${JSON.stringify(box)};
      const pending = prepareDist(path.join(box, 'dist'), layout, true);
      // Time for the worker to make all of it (the build stops it when the write is due).
      await new Promise((r) => setTimeout(r, 3000));
      const prepared = await pending.finish();
      const made = prepared && fs.existsSync(path.join(prepared.dist, INCOMPLETE_MARKER)) && prepared.folders.every((f) => fs.statSync(path.join(prepared.dist, f)).isDirectory());
      const copiesRight = prepared && [...prepared.copies.values()].every((c) => fs.readFileSync(path.join(prepared.dist, c.path)).equals(fs.readFileSync(c.copyFrom)));
      const copyArtifacts = artifacts.filter((a) => 'copyFrom' in a).map((a) => a.path).sort();
      writeDist(path.join(box, 'dist'), artifacts, { prepared });
      writeDist(path.join(box, 'plain'), artifacts);
      console.log(JSON.stringify({ folders: prepared?.folders.length, wanted: layout.folders.length, copies: prepared?.copies.size, layoutCopies: layout.copies.map((c) => c.path).sort(), copyArtifacts, made, copiesRight }));
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: ROOT });
    expect(r.stderr).toBe('');
    const got = JSON.parse(r.stdout.trim().split('\n').pop()!) as { folders: number; wanted: number; copies: number; layoutCopies: string[]; copyArtifacts: string[]; made: boolean; copiesRight: boolean };
    // The layout's copies are exactly the copies renderLibrary gives.
    expect(got.layoutCopies).toEqual(got.copyArtifacts);
    expect(got.layoutCopies.length).toBeGreaterThan(3);
    expect(got.folders).toBe(got.wanted);
    expect(got.copies).toBe(got.layoutCopies.length);
    expect(got.made).toBe(true);
    expect(got.copiesRight).toBe(true);
    expect(tree(path.join(box, 'dist'))).toEqual(tree(path.join(box, 'plain')));
    expect(fs.readdirSync(box).filter((n) => n.includes('skillc-'))).toEqual([]);
  });
});

describe('the write and the old output around a dist made ahead', () => {
  it('a write that cannot take the output\'s lock removes the dist made beforehand', () => {
    const box = scratchDir('dist-folders-locked');
    const { artifacts } = library(box);
    const out = path.join(box, 'dist');
    const dist = newSibling(out);
    fs.mkdirSync(path.join(dist, 'skills'), { recursive: true });
    fs.writeFileSync(path.join(dist, INCOMPLETE_MARKER), 'x\n');
    // Another build (this live process) holds the output.
    fs.writeFileSync(path.join(box, '.dist.skillc-lock'), `${process.pid}\n`);
    expect(() => writeDist(out, artifacts, { prepared: { dist, folders: ['skills'], copies: new Map() } })).toThrow(OutputWriteError);
    expect(fs.readdirSync(box).sort()).toEqual(['.dist.skillc-lock', 'lib']);
  });

  it('removing an old output never follows a folder replaced by a link after it was listed', () => {
    const box = scratchDir('dist-folders-swap');
    const out = path.join(box, 'dist');
    const old = path.join(box, '.dist.skillc-old-99999999-deadbeef');
    for (const d of ['a', 'b']) {
      fs.mkdirSync(path.join(old, d), { recursive: true });
      fs.writeFileSync(path.join(old, d, 'f'), 'x\n');
    }
    fs.writeFileSync(path.join(old, DISCARD_MARKER), 'x\n');
    fs.mkdirSync(path.join(box, 'victim'));
    fs.writeFileSync(path.join(box, 'victim', 'secret'), 'keep me\n');
    // Right after the old output's own listing, its folder b becomes a link to victim/.
    const readdir = fs.readdirSync;
    const spy = vi.spyOn(fs, 'readdirSync').mockImplementation(((p: fs.PathLike, o?: unknown) => {
      const listing = (readdir as (p: fs.PathLike, o?: unknown) => unknown)(p, o);
      if (String(p) === old && fs.lstatSync(path.join(old, 'b')).isDirectory()) {
        fs.rmSync(path.join(old, 'b'), { recursive: true });
        fs.symlinkSync(path.join(box, 'victim'), path.join(old, 'b'));
      }
      return listing;
    }) as typeof fs.readdirSync);
    try {
      recoverOutput(out);
    } finally {
      spy.mockRestore();
    }
    expect(fs.existsSync(old)).toBe(false);
    expect(fs.readFileSync(path.join(box, 'victim', 'secret'), 'utf8')).toBe('keep me\n');
  });
});

describe('skillc build with a dist made ahead (a library large enough for the worker)', () => {
  /** 130 skills with a script each: 260 files to copy and 260 folders, over the worker's threshold. */
  function largeLibrary(box: string): string {
    const lib = path.join(box, 'lib');
    for (let i = 0; i < 130; i++) {
      const dir = path.join(lib, `skill-${String(i).padStart(3, '0')}`);
      fs.mkdirSync(path.join(dir, 'scripts'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: skill-${i}\ndescription: Does task ${i}.\n---\n\n# Task ${i}\n\nRun the script.\n`);
      fs.writeFileSync(path.join(dir, 'scripts', 'run.sh'), `echo ${i}\n`, { mode: 0o755 });
    }
    return lib;
  }

  it('leaves nothing beside the output, whether the write succeeds or another build holds the output', () => {
    const box = scratchDir('dist-folders-cli');
    const lib = largeLibrary(box);
    const out = path.join(box, 'out');
    const ok = skillc(['build', lib, '-o', out, '--no-cache', '-q']);
    expect(ok.code).toBe(0);
    expect(fs.readdirSync(box).sort()).toEqual(['lib', 'out']);
    expect(fs.statSync(path.join(out, 'skills', 'skill-007', 'scripts', 'run.sh')).mode & 0o777).toBe(0o755);
    // Another build (this live process) holds the output: exit 2, the old output as it was, nothing made beside it.
    const before = tree(out);
    fs.writeFileSync(path.join(box, '.out.skillc-lock'), `${process.pid}\n`);
    const locked = skillc(['build', lib, '-o', out, '--no-cache', '-q']);
    expect(locked.code).toBe(2);
    expect(locked.stderr).toMatch(/another skillc build .* is writing/);
    expect(fs.readdirSync(box).sort()).toEqual(['.out.skillc-lock', 'lib', 'out']);
    expect(tree(out)).toEqual(before);
  });
});
