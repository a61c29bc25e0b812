/**
 * Control characters from skill content (a name with ESC sequences, a folder name with a newline)
 * never reach the terminal raw: lint's and build's human-readable output shows them escaped, so a
 * skill cannot recolour, clear or fake lines of a report.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, skillc } from '../helpers/cli.js';
import { scratchDir, writeTree } from '../helpers/tmp.js';

const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/;

describe('control characters in skill content', () => {
  const root = scratchDir('ctl');
  const lib = path.join(root, 'lib');
  const folder = 'evil\nskill\x1b[31m';
  writeTree(lib, {
    [`${folder}/SKILL.md`]: '---\nname: "evil\\e[2J\\u0007skill"\ndescription: "Clears the screen \\e]0;pwned\\u0007 when printed."\n---\n# Title\n\n[missing](gone\u202e.md)\n\n```bash\nunclosed fence: a build warning\n',
  });

  it('lint prints them escaped, one line per problem', () => {
    const r = skillc(['lint', lib, '--no-progress'], root);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    expect(r.stdout).toContain('evil\\nskill\\x1b[31m/SKILL.md');
    // Every problem line starts with the (escaped) path: no line was split by a newline in it.
    const problems = r.stdout.split('\n').filter((l) => /\s(error|warning)\s/.test(l));
    expect(problems.length).toBeGreaterThan(1);
    for (const l of problems) expect(l.startsWith('lib/evil\\nskill')).toBe(true);
    // The JSON format keeps the exact strings (JSON escapes them itself).
    const json = skillc(['lint', lib, '-f', 'json', '--no-progress'], root);
    expect(JSON.parse(json.stdout)[0].filePath).toBe(`lib/${folder}/SKILL.md`);
  });

  it('build prints diagnostics and the summary with them escaped', () => {
    const r = skillc(['build', lib, '-o', path.join(root, 'dist'), '--no-progress'], root);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(RAW_CONTROL);
    expect(r.stderr).toContain('evil\\nskill\\x1b[31m/SKILL.md');
    expect(fs.existsSync(path.join(root, 'dist', 'skills', folder, 'SKILL.md'))).toBe(true);
  });
});

/**
 * skillc query: the markdown answer is for agents and keeps a bundle's text as it is, but the
 * headers around it (name, source path) are one-line labels and show control characters escaped;
 * so does every stderr message naming a path or id from the dist.
 */
describe('control characters in what skillc query prints', () => {
  const root = scratchDir('ctl-query');
  const lib = path.join(root, 'lib');
  const dist = path.join(root, 'dist');
  const folder = 'esc\x1b[31mskill';
  writeTree(lib, {
    [`${folder}/SKILL.md`]: '---\nname: "zebra\\e[2J\\u0007crossing"\ndescription: "Paint zebra crossings on asphalt roads."\n---\n# Paint a zebra crossing\n\nMark the asphalt,\x1b[2J then paint\x07 the stripes.\n',
  });

  beforeAll(() => {
    expect(skillc(['build', lib, '-o', dist, '-q'], root).code).toBe(0);
  });

  it('escapes them in the hit header, keeps the bundle as it is', () => {
    const r = skillc(['query', 'paint zebra crossings on asphalt', '--dist', dist], root);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    const header = lines.find((l) => l.startsWith('# 1. '))!;
    const source = lines.find((l) => l.startsWith('Source: '))!;
    expect(header).toBe('# 1. zebra\\x1b[2J\\x07crossing');
    expect(source).toContain('`skills/esc\\x1b[31mskill/SKILL.md`');
    expect(header + source).not.toMatch(RAW_CONTROL);
    // Piped, the bundle (the skill's own SKILL.md) is returned byte for byte, for the agent.
    expect(r.stdout).toContain(fs.readFileSync(path.join(dist, 'skills', folder, 'SKILL.md'), 'utf8'));
    expect(r.stdout).toContain('asphalt,\x1b[2J then');
  });

  it('on a terminal, escapes them in the bundle too (the same answer piped stays byte for byte)', () => {
    const script = spawnSync('script', ['--version'], { encoding: 'utf8' });
    // util-linux `script` gives the CLI a terminal; without it there is nothing to run here.
    if (script.status !== 0) return;
    const cmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(ROOT, 'bin', 'skillc.js'))} query 'paint zebra crossings on asphalt' --dist ${JSON.stringify(dist)}`;
    const tty = spawnSync('script', ['-qec', cmd, '/dev/null'], { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(tty.status, tty.stderr).toBe(0);
    expect(tty.stdout).toContain('# 1. zebra');
    expect(tty.stdout.replace(/\r\n/g, '\n')).not.toMatch(RAW_CONTROL);
    expect(tty.stdout).toContain('Mark the asphalt,\\x1b[2J then paint\\x07 the stripes.');
  });

  it('escapes them in the stderr line about a missing bundle', () => {
    fs.rmSync(path.join(dist, 'skills', folder, 'SKILL.md'));
    const r = skillc(['query', 'paint zebra crossings on asphalt', '--dist', dist], root);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(RAW_CONTROL);
    expect(r.stderr).toBe(`skillc query: ${path.join(dist, 'index', 'nodes.jsonl')} names bundle skills/esc\\x1b[31mskill/SKILL.md for skill:esc\\x1b[31mskill, which does not exist\n`);
  });
});
