import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTree, ROOT, skillc, skillcAsync } from '../helpers/cli.js';
import { scratchDir } from '../helpers/tmp.js';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'cli-automation');

/** A copy of the fixture library to change, and folders for outputs and caches. */
function workspace(name: string) {
  const dir = scratchDir(name);
  const lib = path.join(dir, 'lib');
  fs.cpSync(FIXTURE, lib, { recursive: true });
  return { dir, lib, out: (n: string) => path.join(dir, n), cache: path.join(dir, 'cache') };
}

const build = (lib: string, out: string, ...extra: string[]) => skillc(['build', lib, '-o', out, '--timings', '--no-progress', ...extra]);

/** The dist without report.json/.md, which hold this run's timings under --timings. */
function distOf(dir: string): Map<string, Buffer> {
  const t = readTree(dir);
  t.delete('report.json');
  t.delete('report.md');
  return t;
}

function cacheLine(stderr: string): { hits: number; misses: number; refused: number; kept: number } {
  const m = /cache: (\d+) hits, (\d+) misses \((\d+) refused\), \d+ written; (\d+) of \d+ output files kept/.exec(stderr);
  if (!m) throw new Error(`no cache line in: ${stderr}`);
  return { hits: Number(m[1]), misses: Number(m[2]), refused: Number(m[3]), kept: Number(m[4]) };
}

function inodes(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const rel of readTree(dir).keys()) {
    const st = fs.statSync(path.join(dir, rel));
    out.set(rel, `${st.ino}:${st.mtimeMs}`);
  }
  return out;
}

describe('the build cache', () => {
  it('an unchanged rebuild writes nothing; one changed skill is parsed again alone; the output is a cold build\'s, byte for byte', () => {
    const w = workspace('cache-rebuild');
    const cold = build(w.lib, w.out('cold'), '--no-cache');
    expect(cold.code).toBe(0);
    expect(fs.existsSync(w.cache)).toBe(false);

    const first = build(w.lib, w.out('dist'), '--cache', w.cache);
    expect(first.code).toBe(0);
    // Nothing comes from an earlier build: each of the 8 parses misses (a first build may still
    // hit what it kept itself, such as the declarations that verify and emit both render).
    const filled = cacheLine(first.stderr);
    expect(filled.misses).toBeGreaterThanOrEqual(8);
    expect(filled.hits).toBeLessThan(filled.misses);
    expect(distOf(w.out('dist'))).toEqual(distOf(w.out('cold')));
    // The reports differ only by the timings --timings asked for.
    const before = inodes(w.out('dist'));

    const again = build(w.lib, w.out('dist'), '--cache', w.cache);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/dist\/ is up to date: .*nothing was written/);
    expect(again.stderr).toMatch(/skillc build: 8 skills found, 8 parsed/);
    expect(inodes(w.out('dist'))).toEqual(before);

    // One skill changes: only it is parsed; files whose bytes stay are kept (linked), not written.
    const changed = path.join(w.lib, 'db-backup', 'SKILL.md');
    fs.appendFileSync(changed, '\n## Notes\n\nKeep the dump out of the repository.\n');
    const inc = build(w.lib, w.out('dist'), '--cache', w.cache);
    expect(inc.code).toBe(0);
    const stats = cacheLine(inc.stderr);
    expect(stats.misses - stats.refused).toBeGreaterThanOrEqual(1);
    expect(stats.hits).toBeGreaterThanOrEqual(7);
    expect(stats.kept).toBeGreaterThan(0);
    const cold2 = build(w.lib, w.out('cold2'), '--no-cache');
    expect(distOf(w.out('dist'))).toEqual(distOf(w.out('cold2')));
    expect(fs.readFileSync(path.join(w.out('dist'), 'skills', 'db-backup', 'SKILL.md'), 'utf8')).toMatch(/Keep the dump out/);
  });

  it('a dist file edited by hand is written again by the next build, not kept', () => {
    const w = workspace('cache-edited');
    expect(build(w.lib, w.out('dist'), '--cache', w.cache).code).toBe(0);
    const graph = path.join(w.out('dist'), 'graph.json');
    const original = fs.readFileSync(graph);
    fs.writeFileSync(graph, '{}');
    const r = build(w.lib, w.out('dist'), '--cache', w.cache);
    expect(r.stderr).not.toMatch(/up to date/);
    expect(fs.readFileSync(graph)).toEqual(original);
    // An edit in place that puts the size and mtime back (as touch -r or rsync -t do) is seen too.
    expect(build(w.lib, w.out('dist'), '--cache', w.cache).stderr).toMatch(/up to date/);
    const st = fs.statSync(graph);
    const ref = path.join(w.dir, 'ref');
    fs.writeFileSync(ref, '');
    expect(spawnSync('touch', ['-r', graph, ref]).status).toBe(0);
    const edited = Buffer.from(original);
    edited[1] = edited[1] === 0x20 ? 0x0a : 0x20;
    fs.writeFileSync(graph, edited);
    expect(spawnSync('touch', ['-r', ref, graph]).status).toBe(0);
    expect(fs.statSync(graph).mtimeMs).toBe(st.mtimeMs);
    expect(fs.statSync(graph).size).toBe(st.size);
    expect(build(w.lib, w.out('dist'), '--cache', w.cache).stderr).not.toMatch(/up to date/);
    expect(fs.readFileSync(graph)).toEqual(original);
    // A file added to the dist is not the dist as written either (the build refuses it, as before).
    fs.writeFileSync(path.join(w.out('dist'), 'skills', 'extra.txt'), 'x');
    expect(build(w.lib, w.out('dist'), '--cache', w.cache).stderr).not.toMatch(/up to date/);
  });

  it('an up-to-date rebuild prints the same diagnostics and exits as the build did under --strict', () => {
    const dir = scratchDir('cache-strict');
    const mini = path.join(ROOT, 'test', 'fixtures', 'mini');
    const args = ['build', mini, '-o', path.join(dir, 'dist'), '--cache', path.join(dir, 'cache'), '--strict', '--no-progress'];
    const first = skillc(args);
    expect(first.code).toBe(1);
    const again = skillc(args);
    expect(again.stderr).toMatch(/is up to date/);
    expect(again.code).toBe(1);
    const diagnostics = (text: string) => text.split('\n').filter((l) => /\((SKC\d+)\)$/.test(l));
    expect(diagnostics(again.stderr)).toEqual(diagnostics(first.stderr));
    expect(diagnostics(first.stderr).length).toBeGreaterThan(0);
  });

  it('a cache inside the library is not read as part of it; one inside the output folder is refused', () => {
    const w = workspace('cache-placement');
    expect(build(w.lib, w.out('cold'), '--no-cache').code).toBe(0);
    const inside = path.join(w.lib, 'db-backup', 'cache');
    expect(build(w.lib, w.out('dist'), '--cache', inside).code).toBe(0);
    expect(fs.existsSync(inside)).toBe(true);
    expect(build(w.lib, w.out('dist'), '--cache', inside).stderr).toMatch(/up to date/);
    fs.rmSync(w.out('dist'), { recursive: true });
    expect(build(w.lib, w.out('dist'), '--cache', inside).code).toBe(0);
    expect(distOf(w.out('dist'))).toEqual(distOf(w.out('cold')));
    const r = build(w.lib, w.out('dist'), '--cache', path.join(w.out('dist'), 'cache'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cache folder .* is inside the output folder/);
  });

  it('a different option, policy or skillc input is not up to date', () => {
    const w = workspace('cache-options');
    expect(build(w.lib, w.out('dist'), '--cache', w.cache).code).toBe(0);
    const r = build(w.lib, w.out('dist'), '--cache', w.cache, '--max-skill-bytes', '100');
    expect(r.stderr).not.toMatch(/up to date/);
    expect(r.stderr).toMatch(/skipped/);
  });

  it('corrupt and foreign cache entries are refused and rebuilt; the output does not change', () => {
    const w = workspace('cache-corrupt');
    expect(build(w.lib, w.out('cold'), '--no-cache').code).toBe(0);
    expect(build(w.lib, w.out('dist'), '--cache', w.cache).code).toBe(0);
    const entries = (fs.readdirSync(path.join(w.cache, 'parse'), { recursive: true }) as string[]).map((f) => path.join(w.cache, 'parse', f)).filter((f) => fs.statSync(f).isFile()).sort();
    expect(entries.length).toBe(8);
    // Flip a byte in one, truncate another, and put a third entry's bytes under a fourth's name.
    const flip = fs.readFileSync(entries[0]!);
    flip[flip.length - 10] = flip[flip.length - 10]! ^ 1;
    fs.writeFileSync(entries[0]!, flip);
    fs.truncateSync(entries[1]!, 100);
    fs.copyFileSync(entries[2]!, entries[3]!);
    fs.rmSync(w.out('dist'), { recursive: true });
    const r = build(w.lib, w.out('dist'), '--cache', w.cache);
    expect(r.code).toBe(0);
    expect(cacheLine(r.stderr)).toMatchObject({ refused: 3 });
    expect(distOf(w.out('dist'))).toEqual(distOf(w.out('cold')));
    // Rebuilt: the next build finds every entry whole.
    fs.rmSync(w.out('dist'), { recursive: true });
    expect(cacheLine(build(w.lib, w.out('dist'), '--cache', w.cache).stderr)).toMatchObject({ refused: 0, misses: 0 });
  });

  it('two builds sharing one cache at once both succeed, and leave it whole', async () => {
    const w = workspace('cache-concurrent');
    expect(build(w.lib, w.out('cold'), '--no-cache').code).toBe(0);
    const runs = await Promise.all(['a', 'b'].map((n) => skillcAsync(['build', w.lib, '-o', w.out(n), '--cache', w.cache, '--timings', '--no-progress'])));
    for (const r of runs) expect(r.code).toBe(0);
    expect(distOf(w.out('a'))).toEqual(distOf(w.out('cold')));
    expect(distOf(w.out('b'))).toEqual(distOf(w.out('cold')));
    const after = build(w.lib, w.out('c'), '--cache', w.cache);
    expect(cacheLine(after.stderr)).toMatchObject({ refused: 0 });
    expect(distOf(w.out('c'))).toEqual(distOf(w.out('cold')));
  });
});
