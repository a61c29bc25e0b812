import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { node, readTree, ROOT, skillc } from '../helpers/cli.js';
import { scratchDir, writeTree } from '../helpers/tmp.js';

const MINI = path.join(ROOT, 'test', 'fixtures', 'mini');
const skill = (name: string, body = '') => `---\nname: ${name}\ndescription: Does ${name}.\n---\n\n# ${name}\n\n${body}`;

describe('skillc --help and usage errors', () => {
  it('prints help for the program and for build, exit 0', () => {
    const top = skillc(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/build \[options\] <library>/);
    const build = skillc(['build', '--help']);
    expect(build.code).toBe(0);
    expect(build.stdout).toMatch(/-o, --out <dir>/);
    expect(build.stdout).toMatch(/Exit codes: 0 build completed, 1 --strict/);
  });

  it('exits 2 on usage errors: no command, missing -o, unknown option, bad number', () => {
    expect(skillc([]).code).toBe(2);
    const noOut = skillc(['build', MINI]);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toMatch(/required option '-o, --out <dir>'/);
    expect(skillc(['build', MINI, '-o', '/tmp/x', '--bogus']).code).toBe(2);
    const jobs = skillc(['build', MINI, '-o', '/tmp/x', '-j', '0']);
    expect(jobs.code).toBe(2);
    expect(jobs.stderr).toMatch(/--jobs must be a whole number ≥ 1/);
  });

  it('exits 2 for an unreadable library, naming it', () => {
    const dir = scratchDir('nolib');
    const r = skillc(['build', path.join(dir, 'missing'), '-o', path.join(dir, 'out')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot read library .*missing: ENOENT/);
    expect(fs.existsSync(path.join(dir, 'out'))).toBe(false);
  });

  it('exits 2 at once for a --policy that is a device or a FIFO (it would never end reading)', () => {
    const dir = scratchDir('policy-fifo');
    spawnSync('mkfifo', [path.join(dir, 'policy.json')]);
    for (const policy of ['/dev/zero', path.join(dir, 'policy.json')]) {
      const r = skillc(['build', MINI, '-o', path.join(dir, 'out'), '--policy', policy]);
      expect(r.code, policy).toBe(2);
      expect(r.stderr, policy).toBe(`skillc build: cannot read policy: ${policy} is not a regular file (a FIFO, socket or device)\n`);
    }
  });

  it('refuses to replace a non-empty folder it did not write, unless --force', () => {
    const dir = scratchDir('outdir');
    writeTree(dir, { 'out/keep.txt': 'precious' });
    const out = path.join(dir, 'out');
    const r = skillc(['build', MINI, '-o', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not empty and was not written by skillc/);
    expect(fs.readFileSync(path.join(out, 'keep.txt'), 'utf8')).toBe('precious');
    expect(skillc(['build', MINI, '-o', out, '--force', '-q']).code).toBe(0);
    expect(fs.existsSync(path.join(out, 'keep.txt'))).toBe(false);
    // Now it is ours: a rebuild replaces it without --force.
    expect(skillc(['build', MINI, '-o', out, '-q']).code).toBe(0);
  });
});

describe('skillc build on a library with bad input', () => {
  it('completes with exit 0, prints file:line:col diagnostics and writes every artifact', () => {
    const out = path.join(scratchDir('mini'), 'dist');
    const r = skillc(['build', 'test/fixtures/mini', '-o', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('test/fixtures/mini/broken-yaml/SKILL.md:3:14  error  invalid YAML');
    expect(r.stderr).toContain('test/fixtures/mini/unclosed-fence/SKILL.md:8:1  warning');
    expect(r.stderr).toMatch(/11 skills found, 11 parsed, 0 skipped/);
    const files = [...readTree(out).keys()];
    expect(files.filter((f) => !f.includes('/'))).toEqual(['candidates.json', 'diagnostics.json', 'graph.json', 'manifest.json', 'parents.json', 'passages.json', 'refactored_library.json', 'report.json', 'report.md']);
    // Every skill is in dist/skills/, nested ones too, with its other files; nothing was rewritten here.
    expect(files.filter((f) => f.startsWith('skills/'))).toEqual(['bom', 'broken-yaml', 'crlf', 'empty', 'flow-yaml', 'good', 'good/references/notes.md', 'good/scripts/run.py', 'latin1', 'no-frontmatter', 'outer', 'outer/inner', 'unclosed-fence'].map((s) => `skills/${s.endsWith('.py') || s.endsWith('.md') ? s : `${s}/SKILL.md`}`).sort());
    for (const s of ['bom', 'latin1', 'crlf']) expect(fs.readFileSync(path.join(out, 'skills', s, 'SKILL.md')).equals(fs.readFileSync(path.join(ROOT, 'test/fixtures/mini', s, 'SKILL.md')))).toBe(true);
    const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
    expect(report.library).toMatchObject({ skillsFound: 11, parsed: 11, skipped: 0 });
    expect(report.diagnostics).toMatchObject({ error: 1 });
  });

  it('exits 1 under --strict when errors were reported, 0 when none', () => {
    const dir = scratchDir('strict');
    expect(skillc(['build', MINI, '-o', path.join(dir, 'a'), '--strict', '-q']).code).toBe(1);
    writeTree(dir, { 'lib/ok/SKILL.md': skill('ok') });
    expect(skillc(['build', path.join(dir, 'lib'), '-o', path.join(dir, 'b'), '--strict', '-q']).code).toBe(0);
  });

  it('survives a symlink loop, a SKILL.md directory and an oversized file in one run', () => {
    const dir = scratchDir('hostile');
    const lib = path.join(dir, 'lib');
    writeTree(lib, { 'ok/SKILL.md': skill('ok'), 'big/SKILL.md': skill('big', 'x'.repeat(5000)) });
    fs.mkdirSync(path.join(lib, 'dir', 'SKILL.md'), { recursive: true });
    fs.symlinkSync('..', path.join(lib, 'ok', 'loop'));
    const r = skillc(['build', lib, '-o', path.join(dir, 'out'), '--max-skill-bytes', '2000', '--format', 'json']);
    expect(r.code).toBe(0);
    const diags = JSON.parse(r.stdout) as { code: string; file: string; line: number; column: number }[];
    expect(diags.map((d) => [d.code, d.file, d.line, d.column])).toEqual([
      ['SKC108', 'big/SKILL.md', 1, 1],
      ['SKC101', 'dir/SKILL.md', 1, 1],
      ['SKC125', 'ok/loop', 1, 1],
    ]);
    const report = JSON.parse(fs.readFileSync(path.join(dir, 'out', 'report.json'), 'utf8'));
    expect(report.library).toMatchObject({ skillsFound: 2, parsed: 1, skipped: 1, skippedByCode: { SKC108: 1 } });
  });

  it('builds an 8 MB SKILL.md of two million one-line sections (parents.json once passed V8\'s longest string)', () => {
    const dir = scratchDir('many-sections');
    writeTree(dir, { 'lib/many/SKILL.md': skill('many', '# a\n'.repeat(2_000_000)) });
    const r = skillc(['build', path.join(dir, 'lib'), '-o', path.join(dir, 'out'), '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const diags = JSON.parse(r.stdout) as { code: string; message: string }[];
    expect(diags.find((d) => d.code === 'SKC122')?.message).toMatch(/only 2000 units for 2000001 headings/);
    const parents = JSON.parse(fs.readFileSync(path.join(dir, 'out', 'parents.json'), 'utf8')) as { parents: { units: { text: string }[]; frontmatter: { raw: string } }[] };
    const p = parents.parents[0]!;
    expect(p.units.length).toBe(2000);
    // Nothing lost: frontmatter and unit texts still make the whole file.
    expect(p.frontmatter.raw + p.units.map((u) => u.text).join('')).toBe(fs.readFileSync(path.join(dir, 'lib/many/SKILL.md'), 'utf8'));
  }, 60_000);

  it('counts tokens of a skill that quotes special-token text such as <|endoftext|> (gpt-tokenizer threw on it)', () => {
    const dir = scratchDir('special-tokens');
    writeTree(dir, { 'lib/tokens/SKILL.md': skill('tokens', 'Documents end with `<|endoftext|>`; chats use `<|im_start|>` and `<|im_end|>`.') });
    const r = skillc(['build', path.join(dir, 'lib'), '-o', path.join(dir, 'out'), '-q']);
    expect(r.stderr).not.toContain('internal error');
    expect(r.code).toBe(0);
    const report = JSON.parse(fs.readFileSync(path.join(dir, 'out', 'report.json'), 'utf8'));
    expect(report.library).toMatchObject({ skillsFound: 1, parsed: 1 });
  });

  it('writes a parents.json that the standalone lossless checker accepts', () => {
    const out = path.join(scratchDir('lossless'), 'dist');
    expect(skillc(['build', MINI, '-o', out, '-q']).code).toBe(0);
    const r = node('build/bench/lossless.js', [out, MINI]);
    expect(r.stdout).toMatch(/parents checked: 11, skipped by the build: 0, mismatches: 0/);
    expect(r.code).toBe(0);
  });

  it('the lossless checker catches a tampered unit', () => {
    const out = path.join(scratchDir('tamper'), 'dist');
    expect(skillc(['build', MINI, '-o', out, '-q']).code).toBe(0);
    const file = path.join(out, 'parents.json');
    const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    doc.parents[0].units[1].text = doc.parents[0].units[1].text.slice(0, -1);
    fs.writeFileSync(file, JSON.stringify(doc));
    const r = node('build/bench/lossless.js', [out, MINI]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/mismatches: [1-9]/);
  });
});

describe('determinism', () => {
  it('two builds are byte-identical, and so are builds with 1 and 2 worker threads', () => {
    const dir = scratchDir('determinism');
    const lib = path.join(dir, 'lib');
    // Enough skills that the parse pass uses worker threads.
    const files: Record<string, string> = {};
    for (let i = 0; i < 80; i++) files[`s${String(i).padStart(2, '0')}/SKILL.md`] = skill(`s${i}`, `## Step\n\n1. Run \`tool ${i}\`.\n`);
    writeTree(lib, files);
    const outs = ['a', 'b', 'c'].map((n) => path.join(dir, n));
    expect(skillc(['build', lib, '-o', outs[0]!, '-j', '1', '-q']).code).toBe(0);
    expect(skillc(['build', lib, '-o', outs[1]!, '-j', '1', '-q']).code).toBe(0);
    expect(skillc(['build', lib, '-o', outs[2]!, '-j', '2', '-q']).code).toBe(0);
    const [a, b, c] = outs.map(readTree);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(JSON.parse(a!.get('parents.json')!.toString()).parents).toHaveLength(80);
  });

  it('--timings adds per-pass milliseconds to the report (and only then)', () => {
    const dir = scratchDir('timings');
    expect(skillc(['build', MINI, '-o', path.join(dir, 'a'), '-q']).code).toBe(0);
    expect(skillc(['build', MINI, '-o', path.join(dir, 'b'), '-q', '--timings']).code).toBe(0);
    const a = JSON.parse(fs.readFileSync(path.join(dir, 'a', 'report.json'), 'utf8'));
    const b = JSON.parse(fs.readFileSync(path.join(dir, 'b', 'report.json'), 'utf8'));
    expect(a.passes[0].ms).toBeUndefined();
    expect(typeof b.passes[0].ms).toBe('number');
  });
});
