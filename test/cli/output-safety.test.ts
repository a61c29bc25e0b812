/**
 * What `skillc build -o DIR` may replace, and how (issue 25 items 1, 2, 3, 5, 10 and 13). Every
 * destructive case runs in a scratch sandbox: HOME and the working folder are sandbox folders, so
 * a regression of the guard could only remove sandbox files. The root of the file system is
 * checked through the guard's pure function, never through a build.
 */
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, canRunUnprivileged, readTree, skillcUnprivileged, type CliResult } from '../helpers/cli.js';
import { scratchDir, writeTree } from '../helpers/tmp.js';
import { checkOutputDir, floorViolation, OutputRefusedError } from '../../src/emit/output-guard.js';
import { recoverOutput, writeDist, InputChangedError, DISCARD_MARKER, INCOMPLETE_MARKER, SET_ASIDE_MARKER } from '../../src/emit/write-dist.js';

const BIN = path.join(ROOT, 'bin', 'skillc.js');
const MINI = path.join(ROOT, 'test', 'fixtures', 'mini');

/** Runs the CLI with HOME set to a sandbox folder. */
function run(args: readonly string[], cwd: string, home: string): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', CI: '1', HOME: home } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Every file under dir with its SHA-256, for "nothing changed" checks. */
function fingerprint(dir: string): string {
  const hash = crypto.createHash('sha256');
  for (const [rel, bytes] of readTree(dir)) hash.update(`${rel}\0`).update(bytes);
  return hash.digest('hex');
}

function skillText(name: string, body: string): string {
  return `---\nname: ${name}\ndescription: The ${name} skill of the output-safety tests.\n---\n\n# ${name}\n\n${body}\n`;
}

/**
 * box/lib: 24 skills with a random asset of `mib` MiB each, so that writing the dist takes long
 * enough for a signal to land in it. Returns the library's path.
 */
function heavyLibrary(box: string, mib: number): string {
  const lib = path.join(box, 'lib');
  const files: Record<string, string | Uint8Array> = {};
  for (let i = 0; i < 24; i++) {
    files[`s${i}/SKILL.md`] = skillText(`s${i}`, `Run \`python scripts/run.py --input data.csv\` to process batch ${i}.`);
    files[`s${i}/assets/blob.bin`] = crypto.randomBytes(mib * 1024 * 1024);
  }
  writeTree(lib, files);
  return lib;
}

describe('a dist is marked, and nothing else is replaced', () => {
  const box = scratchDir('guard');
  const home = path.join(box, 'home');
  fs.mkdirSync(home);

  it('a web-app folder with its own manifest.json is refused, with or without .git, and left byte for byte', () => {
    const app = path.join(box, 'webapp');
    writeTree(app, { 'manifest.json': '{"name": "My App", "start_url": "/"}\n', 'index.js': 'console.log(1)\n', 'src/app.ts': 'export {}\n' });
    const before = fingerprint(app);
    const r = run(['build', MINI, '-o', app], box, home);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('was not written by skillc build (its manifest.json has no "format": "skillc-dist")');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(fingerprint(app)).toBe(before);
    // A repository is refused even with --force.
    fs.mkdirSync(path.join(app, '.git'));
    const forced = run(['build', MINI, '-o', app, '--force'], box, home);
    expect(forced.code).toBe(2);
    expect(forced.stderr).toContain('it holds .git (a repository)');
    expect(fingerprint(app)).toBe(before);
  });

  it('a dist of an earlier skillc (no format field) and a dist with a foreign file are refused', () => {
    const out = path.join(box, 'dist');
    expect(run(['build', MINI, '-o', out, '-q'], box, home).code).toBe(0);
    const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.format).toBe('skillc-dist');
    fs.writeFileSync(path.join(out, 'notes.txt'), 'mine\n');
    const foreign = run(['build', MINI, '-o', out], box, home);
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toContain('it also holds "notes.txt", which a build does not write');
    fs.rmSync(path.join(out, 'notes.txt'));
    delete manifest.format;
    fs.writeFileSync(path.join(out, 'manifest.json'), JSON.stringify(manifest));
    const old = run(['build', MINI, '-o', out], box, home);
    expect(old.code).toBe(2);
    expect(old.stderr).toContain('from an earlier skillc without the dist marker');
  });

  it('the floor holds whatever the flags: the library, its ancestors, the working folder, its ancestors, home, a symlinked output', () => {
    const lib = path.join(box, 'outer', 'lib');
    fs.cpSync(MINI, lib, { recursive: true });
    const cwd = path.join(box, 'work', 'here');
    fs.mkdirSync(cwd, { recursive: true });
    fs.writeFileSync(path.join(cwd, 'keep.txt'), 'keep\n');
    fs.symlinkSync(path.join(box, 'outer'), path.join(box, 'link-to-outer'));
    const before = fingerprint(box);
    const cases: [string, RegExp][] = [
      [lib, /it is the library being built/],
      [path.join(box, 'outer'), /it holds the library being built/],
      [path.join(box, 'link-to-outer', 'lib'), /it is the library being built/],
      [cwd, /it is the working folder/],
      [path.join(box, 'work'), /it holds the working folder/],
      [home, /it is your home folder/],
      [path.join(box, 'link-to-outer'), /is a symbolic link/],
    ];
    for (const [out, why] of cases) {
      const r = run(['build', lib, '-o', out, '--force'], cwd, home);
      expect(r.code, out).toBe(2);
      expect(r.stderr, out).toMatch(why);
    }
    expect(fingerprint(box)).toBe(before);
  });

  it('--force never replaces a folder of the library, nor one with a repository further down', () => {
    const lib = path.join(box, 'forced', 'lib');
    fs.cpSync(MINI, lib, { recursive: true });
    const skill = path.join(lib, fs.readdirSync(lib).find((n) => fs.statSync(path.join(lib, n)).isDirectory())!);
    const before = fingerprint(lib);
    const inside = run(['build', lib, '-o', skill, '--force'], box, home);
    expect(inside.code).toBe(2);
    expect(inside.stderr).toContain('it is a folder of the library being built that skillc did not write');
    expect(fingerprint(lib)).toBe(before);
    const projects = path.join(box, 'forced', 'projects');
    writeTree(projects, { 'notes.txt': 'mine\n', 'app/src/.git/HEAD': 'ref: refs/heads/main\n' });
    const repo = run(['build', lib, '-o', projects, '--force'], box, home);
    expect(repo.code).toBe(2);
    expect(repo.stderr).toMatch(/it holds a repository at .*app\/src\/\.git/);
    expect(fs.existsSync(path.join(projects, 'notes.txt'))).toBe(true);
  });

  it.skipIf(typeof process.getuid !== 'function' || process.getuid() !== 0)('a library reached under a second path (a bind mount) is still the library', () => {
    const top1 = path.join(box, 'top1');
    const top2 = path.join(box, 'top2');
    fs.cpSync(MINI, path.join(top1, 'lib'), { recursive: true });
    fs.mkdirSync(top2);
    if (spawnSync('mount', ['--bind', top1, top2]).status !== 0) return; // no mount namespace rights here
    try {
      const before = fingerprint(top1);
      const r = run(['build', path.join(top1, 'lib'), '-o', path.join(top2, 'lib'), '--force'], box, home);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('it is the library being built (reached under another path)');
      const parent = run(['build', path.join(top1, 'lib'), '-o', top2, '--force'], box, home);
      expect(parent.code).toBe(2);
      expect(parent.stderr).toContain('it holds the library being built (reached under another path)');
      expect(fingerprint(top1)).toBe(before);
    } finally {
      spawnSync('umount', [top2]);
    }
  });

  it('the root of the file system and everything above home are below the floor (pure check, never built)', () => {
    const places = { library: '/srv/skills/lib', cwd: '/srv/skills', home: '/home/user' };
    expect(floorViolation('/', places)).toBe('it is the root of the file system');
    expect(floorViolation('/home', places)).toMatch(/holds your home folder/);
    expect(floorViolation('/srv', places)).toMatch(/holds the working folder/);
    expect(floorViolation('/srv/skills/dist', places)).toBeNull();
    expect(() => checkOutputDir('/', true, { library: MINI })).toThrow(OutputRefusedError);
  });
});

describe('replacing a dist', () => {
  it('a killed build leaves the old or the new dist whole; the next build cleans up and puts a set-aside dist back', async () => {
    const box = scratchDir('atomic');
    const lib = heavyLibrary(box, 2);
    const out = path.join(box, 'dist');
    const build = () => spawnSync(process.execPath, [BIN, 'build', lib, '-o', out, '-q', '--no-progress'], { cwd: box, encoding: 'utf8' });
    expect(build().status).toBe(0);
    const oldPrint = fingerprint(out);
    fs.writeFileSync(path.join(lib, 's0', 'SKILL.md'), skillText('s0', 'Changed: run `python scripts/run.py --input other.csv` now.'));
    const t0 = performance.now();
    expect(build().status).toBe(0);
    const duration = performance.now() - t0;
    const newPrint = fingerprint(out);
    expect(newPrint).not.toBe(oldPrint);
    // Back to the old library, so each killed run replaces old by new.
    fs.writeFileSync(path.join(lib, 's0', 'SKILL.md'), skillText('s0', 'Run `python scripts/run.py --input data.csv` to process batch 0.'));
    expect(build().status).toBe(0);
    expect(fingerprint(out)).toBe(oldPrint);
    fs.writeFileSync(path.join(lib, 's0', 'SKILL.md'), skillText('s0', 'Changed: run `python scripts/run.py --input other.csv` now.'));

    const siblings = () => fs.readdirSync(box).filter((n) => n.startsWith('.dist.skillc-'));
    for (const [signal, share] of [['SIGKILL', 0.6], ['SIGKILL', 0.8], ['SIGKILL', 0.95], ['SIGINT', 0.85]] as const) {
      const child = spawn(process.execPath, [BIN, 'build', lib, '-o', out, '-q', '--no-progress'], { cwd: box, stdio: 'ignore' });
      // Listen at once: on a quiet machine the build may end before the signal is sent.
      const closed = new Promise<number | null>((r) => child.on('close', (c) => r(c)));
      await new Promise((r) => setTimeout(r, duration * share));
      child.kill(signal);
      const code = await closed;
      const present = fs.existsSync(out) ? fingerprint(out) : null;
      if (present !== null) {
        expect([oldPrint, newPrint], `${signal} at ${share}`).toContain(present);
      } else {
        // Killed between the two renames: the old dist is whole, aside, and comes back next time.
        expect(signal).toBe('SIGKILL');
        const aside = siblings().filter((n) => n.includes('-old-'));
        expect(aside).toHaveLength(1);
        expect(fingerprint(path.join(box, aside[0]!))).toBe(oldPrint);
      }
      if (signal !== 'SIGKILL') {
        // A caught signal either stopped the build before it wrote or waited for the write to end.
        expect(siblings(), `${signal} (exit ${code})`).toEqual([]);
      }
      const said = recoverOutput(out);
      expect(siblings()).toEqual([]);
      expect(said.every((l) => /^(removed|restored)/.test(l))).toBe(true);
      // Reset to the old dist for the next round.
      if (fs.existsSync(out) && fingerprint(out) === newPrint) fs.rmSync(out, { recursive: true });
      if (!fs.existsSync(out)) {
        fs.writeFileSync(path.join(lib, 's0', 'SKILL.md'), skillText('s0', 'Run `python scripts/run.py --input data.csv` to process batch 0.'));
        expect(build().status).toBe(0);
        fs.writeFileSync(path.join(lib, 's0', 'SKILL.md'), skillText('s0', 'Changed: run `python scripts/run.py --input other.csv` now.'));
      }
      expect(fingerprint(out)).toBe(oldPrint);
    }
  }, 300_000);

  it('SIGINT while the dist is being written: the write finishes, the dist is whole, exit 130 with a message', async () => {
    const box = scratchDir('sigint');
    const lib = heavyLibrary(box, 4);
    const out = path.join(box, 'dist');
    // Up to three tries: the signal must land while the new dist is being written, which on a
    // very fast disk can end before the folder is seen.
    for (let attempt = 0; attempt < 3; attempt++) {
      fs.rmSync(out, { recursive: true, force: true });
      const child = spawn(process.execPath, [BIN, 'build', lib, '-o', out, '-q', '--no-progress'], { cwd: box });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const closed = new Promise<number | null>((r) => child.on('close', (c) => r(c)));
      let sent = false;
      while (child.exitCode === null) {
        const writing = fs.readdirSync(box).some((n) => n.startsWith('.dist.skillc-new-'));
        if (writing) {
          child.kill('SIGINT');
          sent = true;
          break;
        }
        await new Promise((r) => setTimeout(r, 2));
      }
      const code = await closed;
      if (!sent) continue;
      expect(code, stderr).toBe(130);
      expect(stderr).toContain('SIGINT received while writing');
      expect(JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8')).format).toBe('skillc-dist');
      expect(fs.readdirSync(path.join(out, 'skills'))).toHaveLength(24);
      expect(fs.readdirSync(box).filter((n) => n.startsWith('.dist.skillc-'))).toEqual([]);
      return;
    }
    throw new Error('the signal never landed during the write in three tries');
  }, 120_000);

  it('recovery removes only what skillc provably left: a look-alike folder without the marker stays', () => {
    const box = scratchDir('lookalike');
    const out = path.join(box, 'dist');
    writeTree(box, { '.dist.skillc-new-999999-deadbeef/precious.txt': 'keep\n', '.dist.skillc-new-999998-deadbeef/skills/x.md': 'partial\n', '.dist.skillc-old-999997-deadbeef/notes.txt': 'not a dist\n' });
    fs.writeFileSync(path.join(box, '.dist.skillc-new-999998-deadbeef', INCOMPLETE_MARKER), '999998\n');
    writeTree(box, { '.dist.skillc-old-999996-deadbeef/half.txt': 'half\n', '.dist.skillc-old-999995-deadbeef/report.md': 'whole\n' });
    fs.writeFileSync(path.join(box, '.dist.skillc-old-999996-deadbeef', DISCARD_MARKER), '999996\n');
    fs.writeFileSync(path.join(box, '.dist.skillc-old-999995-deadbeef', SET_ASIDE_MARKER), '999995\n');
    const said = recoverOutput(out);
    expect(said).toEqual([
      'removed .dist.skillc-new-999998-deadbeef, left by an interrupted build',
      'restored ' + out + ' from .dist.skillc-old-999995-deadbeef, the previous output an interrupted build had set aside',
      'removed .dist.skillc-old-999996-deadbeef, left by an interrupted build',
    ]);
    expect(fs.readFileSync(path.join(box, '.dist.skillc-new-999999-deadbeef', 'precious.txt'), 'utf8')).toBe('keep\n');
    expect(fs.existsSync(path.join(box, '.dist.skillc-old-999997-deadbeef', 'notes.txt'))).toBe(true);
    expect(fs.readdirSync(out)).toEqual(['report.md']);
  });

  it('an input swapped for a FIFO fails the copy at once instead of waiting for a writer', () => {
    const box = scratchDir('fifo');
    const fifo = path.join(box, 'input.bin');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const artifacts = [{ path: 'skills/a/input.bin', copyFrom: fifo, sha256: '0'.repeat(64) }];
    expect(() => writeDist(path.join(box, 'dist'), artifacts)).toThrow(/changed while the build was running \(ENOTREG \(not a regular file\)\)/);
    expect(fs.existsSync(path.join(box, 'dist'))).toBe(false);
  });

  it('an input that changed since it was read fails the write, and the old dist stays', () => {
    const box = scratchDir('changed');
    writeTree(box, { 'input.txt': 'as read\n', 'dist/manifest.json': '{}' });
    const out = path.join(box, 'dist');
    const artifacts = [{ path: 'skills/a/input.txt', copyFrom: path.join(box, 'input.txt'), sha256: crypto.createHash('sha256').update('as it was\n').digest('hex') }];
    expect(() => writeDist(out, artifacts)).toThrow(InputChangedError);
    expect(fs.readdirSync(out)).toEqual(['manifest.json']);
    expect(fs.readdirSync(box).sort()).toEqual(['dist', 'input.txt']);
  });

  it('a lock held by a running process refuses a second build on the same output', () => {
    const box = scratchDir('lock');
    const out = path.join(box, 'dist');
    fs.writeFileSync(path.join(box, '.dist.skillc-lock'), `${process.pid}\n`);
    const r = run(['build', MINI, '-o', out], box, box);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`another skillc build (process ${process.pid}) is writing`);
    expect(fs.existsSync(out)).toBe(false);
    // A lock whose process is gone is stale and taken over.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    fs.writeFileSync(path.join(box, '.dist.skillc-lock'), `${dead}\n`);
    expect(run(['build', MINI, '-o', out, '-q'], box, box).code).toBe(0);
    expect(fs.existsSync(path.join(box, '.dist.skillc-lock'))).toBe(false);
  });
});

describe('modes, large files and unwritable places', () => {
  it('keeps the permission bits of inputs and makes folders with the umask', () => {
    const box = scratchDir('modes');
    writeTree(box, { 'lib/tool/SKILL.md': skillText('tool', 'Run `scripts/run.sh`.'), 'lib/tool/scripts/run.sh': '#!/bin/sh\necho hi\n' });
    fs.chmodSync(path.join(box, 'lib/tool/scripts/run.sh'), 0o750);
    fs.chmodSync(path.join(box, 'lib/tool/SKILL.md'), 0o640);
    const r = spawnSync('/bin/sh', ['-c', `umask 027 && exec "${process.execPath}" "${BIN}" build lib -o dist -q`], { cwd: box, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const mode = (p: string) => fs.statSync(path.join(box, 'dist', p)).mode & 0o777;
    expect(mode('skills/tool/scripts/run.sh')).toBe(0o750);
    expect(mode('skills/tool/SKILL.md')).toBe(0o640);
    expect(mode('.')).toBe(0o750);
    expect(mode('skills/tool')).toBe(0o750);
    expect(mode('report.json')).toBe(0o640);
  });

  it('copies a file over 2 GiB (sparse here) in chunks, whole, with its size in the manifest', () => {
    const box = scratchDir('huge');
    writeTree(box, { 'lib/big/SKILL.md': skillText('big', 'The model weights are in assets/.') });
    const big = path.join(box, 'lib/big/assets/weights.bin');
    fs.mkdirSync(path.dirname(big));
    const size = 2 ** 31 + 4096;
    const fd = fs.openSync(big, 'w');
    fs.writeSync(fd, Buffer.from('head'), 0, 4, 0);
    fs.writeSync(fd, Buffer.from('tail'), 0, 4, size - 4);
    fs.closeSync(fd);
    const r = spawnSync(process.execPath, [BIN, 'build', 'lib', '-o', 'dist', '-q'], { cwd: box, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const copy = path.join(box, 'dist/skills/big/assets/weights.bin');
    expect(fs.statSync(copy).size).toBe(size);
    const edge = (file: string, at: number) => {
      const b = Buffer.alloc(4);
      const h = fs.openSync(file, 'r');
      fs.readSync(h, b, 0, 4, at);
      fs.closeSync(h);
      return b.toString();
    };
    expect(edge(copy, 0)).toBe('head');
    expect(edge(copy, size - 4)).toBe('tail');
    const manifest = JSON.parse(fs.readFileSync(path.join(box, 'dist/manifest.json'), 'utf8')) as { inputs: { path: string; bytes: number }[] };
    expect(manifest.inputs.find((i) => i.path === 'big/assets/weights.bin')?.bytes).toBe(size);
  }, 60_000);

  it.skipIf(!canRunUnprivileged())('an unwritable output place and an unreadable library are one-line errors with exit 2', () => {
    const box = scratchDir('eacces');
    fs.chmodSync(box, 0o755);
    fs.cpSync(MINI, path.join(box, 'lib'), { recursive: true });
    fs.mkdirSync(path.join(box, 'ro'), { mode: 0o555 });
    fs.mkdirSync(path.join(box, 'closed'), { mode: 0o000 });
    for (const [args, message] of [
      [['build', 'lib', '-o', 'ro/dist'], /^skillc build: cannot create .*ro\/\.dist\.skillc-lock: EACCES \(permission denied\); ro\/dist was left as it was\n$/],
      [['build', 'closed', '-o', 'out'], /^skillc build: cannot read library .*closed: EACCES \(permission denied\)\n$/],
    ] as const) {
      const r = skillcUnprivileged(args, box);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
    fs.chmodSync(path.join(box, 'closed'), 0o755);
  });

  it.skipIf(!canRunUnprivileged())('an old dist that cannot be removed after the new one is in place: exit 0 and a warning, not a crash', () => {
    const box = scratchDir('stuck-old');
    fs.chmodSync(box, 0o777);
    fs.cpSync(MINI, path.join(box, 'lib'), { recursive: true });
    spawnSync('chmod', ['-R', 'a+rX', path.join(box, 'lib')]);
    expect(skillcUnprivileged(['build', 'lib', '-o', 'dist', '-q'], box).code).toBe(0);
    fs.chmodSync(path.join(box, 'dist', 'skills'), 0o555);
    const r = skillcUnprivileged(['build', 'lib', '-o', 'dist', '-q'], box);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^skillc build: the new dist is in place, but the previous one, set aside at .*\.dist\.skillc-old-\d+-[0-9a-f]{8}, could not be removed \(EACCES \(permission denied\)\); remove it by hand$/m);
    expect(JSON.parse(fs.readFileSync(path.join(box, 'dist', 'manifest.json'), 'utf8')).format).toBe('skillc-dist');
    expect(fs.existsSync(path.join(box, '.dist.skillc-lock'))).toBe(false);
    for (const n of fs.readdirSync(box).filter((x) => x.startsWith('.dist.skillc-old-'))) spawnSync('chmod', ['-R', 'u+w', path.join(box, n)]);
  });
});
