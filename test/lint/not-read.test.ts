/**
 * `skillc lint` never passes a skill it did not read (issue 25 item 7, issue 24 item 5): a
 * SKILL.md over the size limit, a symbolic link, an unreadable file or folder, a script reached
 * through a link, and a misnamed skill.md are each reported, with the exit code that follows, both
 * when the file is given (as pre-commit passes it) and when its library folder is.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { canRunUnprivileged, skillc, skillcUnprivileged, type CliResult } from '../helpers/cli.js';
import { scratchDir, writeTree } from '../helpers/tmp.js';

function skill(name: string, body = 'Follow the steps.\n'): string {
  return `---\nname: ${name}\ndescription: The ${name} skill, written for the lint tests of unread input.\n---\n\n# ${name}\n\n${body}`;
}

const root = scratchDir('lint-not-read');
const lib = path.join(root, 'lib');
writeTree(lib, {
  'fine/SKILL.md': skill('fine'),
  'fine/scripts/real.sh': '#!/bin/sh\necho ok\n',
  // Linted as the skill file, with every other rule: the broken link is reported too.
  'lower/skill.md': skill('lower', 'See [the notes](missing.md).\n'),
  'huge/SKILL.md': skill('huge', `${'word '.repeat(7_000_000)}\n`),
});
fs.mkdirSync(path.join(lib, 'linked'));
fs.symlinkSync('../fine/SKILL.md', path.join(lib, 'linked', 'SKILL.md'));
fs.symlinkSync('/etc/hosts', path.join(lib, 'fine', 'scripts', 'linked.sh'));
fs.symlinkSync('../../../secret.txt', path.join(lib, 'fine', 'key.md'));

interface JsonResult {
  filePath: string;
  messages: { ruleId: string; severity: number; message: string }[];
}

function results(r: CliResult): JsonResult[] {
  return JSON.parse(r.stdout) as JsonResult[];
}

function rulesOf(r: CliResult, file: string): string[] {
  return results(r)
    .filter((x) => x.filePath === file)
    .flatMap((x) => x.messages.map((m) => `${m.ruleId}:${m.severity}`));
}

describe('lint reports what it could not read', () => {
  it('a SKILL.md over the size limit, given alone: an error and exit 1, not a silent pass', () => {
    const r = skillc(['lint', 'huge/SKILL.md'], lib);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^huge\/SKILL\.md:1:1 {2}error {2}SKILL\.md is 35,000,\d{3} bytes, more than skillc reads \(32 MiB\)/m);
    expect(r.stdout).toContain('lint/skill-not-read');
  });

  it('a symlinked SKILL.md, given alone: an error naming the link target', () => {
    const r = skillc(['lint', 'linked/SKILL.md'], lib);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('linked/SKILL.md:1:1  error  SKILL.md is a symbolic link (to ../fine/SKILL.md)');
  });

  it('a misnamed skill.md is linted as the skill file and its name is an error (skill-file-name)', () => {
    for (const given of ['lower/skill.md', 'lower']) {
      const r = skillc(['lint', given, '-f', 'json'], lib);
      expect(r.code, given).toBe(1);
      expect(rulesOf(r, 'lower/skill.md').sort(), given).toEqual(['link-resolves:2', 'skill-file-name:2']);
    }
  });

  it('the library folder: every problem at once, no "no skills found", exit 1', () => {
    const r = skillc(['lint', '.', '-f', 'json'], lib);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('no skills found');
    expect(rulesOf(r, 'huge/SKILL.md')).toEqual(['lint/skill-not-read:2']);
    expect(rulesOf(r, 'linked/SKILL.md')).toEqual(['lint/skill-not-read:2']);
    expect(rulesOf(r, 'fine/scripts/linked.sh')).toEqual(['lint/file-not-read:1']);
    // A link out of the skill is left out of the dist; lint says so.
    expect(results(r).find((x) => x.filePath === 'fine/key.md')?.messages[0]?.message).toBe('symbolic link (to ../../../secret.txt) leading outside the skill: skillc build leaves it out of the dist');
    expect(rulesOf(r, 'lower/skill.md')).toContain('skill-file-name:2');
    expect(rulesOf(r, 'fine/SKILL.md')).toEqual([]);
  });

  it('a folder holding only a skill that cannot be read is reported, not "no skills found"', () => {
    const r = skillc(['lint', 'linked'], lib);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('lint/skill-not-read');
  });

  it('a second skill file differing only in case is reported on that file', () => {
    const dir = path.join(root, 'twin');
    writeTree(dir, { 'twin/SKILL.md': skill('twin'), 'twin/Skill.md': 'stale copy\n' });
    // On a case-insensitive file system the two names are one file: nothing to test there.
    if (fs.readdirSync(path.join(dir, 'twin')).length < 2) return;
    const r = skillc(['lint', 'twin', '-f', 'json'], dir);
    expect(r.code).toBe(1);
    expect(rulesOf(r, 'twin/Skill.md')).toEqual(['skill-file-name:2']);
    expect(rulesOf(r, 'twin/SKILL.md')).toEqual([]);
  });

  it.skipIf(!canRunUnprivileged())('an unreadable SKILL.md and an unreadable folder are errors (run without root privileges)', () => {
    const dir = path.join(root, 'perm');
    writeTree(dir, { 'closed/SKILL.md': skill('closed'), 'open/SKILL.md': skill('open'), 'open/secret/notes.md': 'x\n' });
    for (const p of [root, dir, path.join(dir, 'closed'), path.join(dir, 'open')]) fs.chmodSync(p, 0o755);
    fs.chmodSync(path.join(dir, 'open', 'SKILL.md'), 0o644);
    fs.chmodSync(path.join(dir, 'closed', 'SKILL.md'), 0o000);
    fs.chmodSync(path.join(dir, 'open', 'secret'), 0o000);
    try {
      const alone = skillcUnprivileged(['lint', 'closed/SKILL.md'], dir);
      expect(alone.stderr).toBe('');
      expect(alone.code).toBe(1);
      expect(alone.stdout).toContain('closed/SKILL.md:1:1  error  cannot read SKILL.md: EACCES (permission denied); the skill was not linted  lint/skill-not-read');
      const all = skillcUnprivileged(['lint', '.'], dir);
      expect(all.code).toBe(1);
      expect(all.stdout).toContain('open/secret:1:1  error  cannot read this folder: EACCES (permission denied); it was not linted  lint/file-not-read');
    } finally {
      fs.chmodSync(path.join(dir, 'closed', 'SKILL.md'), 0o644);
      fs.chmodSync(path.join(dir, 'open', 'secret'), 0o755);
    }
  });

  it('a skill in a folder named like a build\'s temporary folder is linted like any other', () => {
    const dir = path.join(root, 'temp-named');
    writeTree(dir, { '.a.skillc-old-99999999-deadbeef/bad/SKILL.md': '# no frontmatter\n' });
    const r = skillc(['lint', '.', '-f', 'json'], dir);
    expect(r.code).toBe(1);
    expect(rulesOf(r, '.a.skillc-old-99999999-deadbeef/bad/SKILL.md')).toContain('frontmatter-present:2');
  });

  it('a configuration that is a FIFO or a link to /dev/zero is an error at once, not a hang', () => {
    const dir = path.join(root, 'hostile-config');
    writeTree(dir, { 'ok/SKILL.md': skill('ok') });
    fs.symlinkSync('/dev/zero', path.join(dir, '.skillc-lint.json'));
    const zero = skillc(['lint', 'ok'], dir);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toMatch(/^skillc lint: cannot read config: .*\.skillc-lint\.json is not a regular file \(a FIFO, socket or device\)\n$/);
    fs.rmSync(path.join(dir, '.skillc-lint.json'));
    spawnSync('mkfifo', [path.join(dir, '.skillc-lint.json')]);
    const fifo = skillc(['lint', 'ok'], dir);
    expect(fifo.code).toBe(2);
    expect(fifo.stderr).toContain('is not a regular file');
  });
});
