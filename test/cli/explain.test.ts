import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, skillc } from '../helpers/cli.js';
import { scratchDir } from '../helpers/tmp.js';

describe('skillc explain', () => {
  let dist: string;
  beforeAll(() => {
    dist = path.join(scratchDir('explain'), 'dist');
    const r = skillc(['build', 'test/fixtures/verify/risk-curl', '-o', dist, '-q']);
    expect(r.code, r.stderr).toBe(0);
  });

  it('explains a rejection by contract id: first failed check, risk findings with file:line:col, members', () => {
    const r = skillc(['explain', 'curl-url-sh', '--dist', dist]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/decision: reject {2}\(first failed check: risk\)/);
    expect(r.stdout).toMatch(/inst-a\/SKILL\.md:11:1 {2}bash\.pipe-to-shell \(code-exec, 1\)/);
    expect(r.stdout).toMatch(/members: 2 units from 2 parents/);
    expect(r.stdout).toMatch(/inst-b\/SKILL\.md:8 {2}Install the CLI/);
  });

  it('prints what the README shows for this fixture, line for line (the README elides with …)', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const block = /```\n\$ skillc explain (\S+) --dist \.\/dist\n([\s\S]*?)```/.exec(readme);
    expect(block).not.toBeNull();
    const r = skillc(['explain', block![1]!, '--dist', dist]);
    expect(r.code, r.stderr).toBe(0);
    const shown = block![2]!.trimEnd().split('\n');
    const real = r.stdout.trimEnd().split('\n');
    const elided = shown.indexOf('  …');
    expect(real.slice(0, elided)).toEqual(shown.slice(0, elided));
    expect(real.slice(real.length - (shown.length - elided - 1))).toEqual(shown.slice(elided + 1));
  });

  it('the example in --help names a candidate of the Quickstart build', () => {
    const help = skillc(['explain', '--help']).stdout;
    const [, id, distArg] = /skillc explain (\S+) --dist (\S+)/.exec(help)!;
    expect(distArg).toBe('examples/dist');
    const quickstart = path.join(scratchDir('explain-quickstart'), 'dist');
    expect(skillc(['build', 'examples/skills', '-o', quickstart, '-q']).code).toBe(0);
    expect(skillc(['explain', id!, '--dist', quickstart]).code).toBe(0);
  });

  it('finds the same candidate by cluster id, and prints JSON on request', () => {
    const byContract = JSON.parse(skillc(['explain', 'curl-url-sh', '--dist', dist, '--json']).stdout);
    const r = skillc(['explain', byContract.cluster.id, '--dist', dist, '--json']);
    expect(JSON.parse(r.stdout).profile.contract).toBe('curl-url-sh');
  });

  it('exits 2 with a suggestion for an unknown id, and for a missing dist', () => {
    const r = skillc(['explain', 'curl', '--dist', dist]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no cluster or contract 'curl'.*did you mean curl-url-sh/);
    const missing = skillc(['explain', 'x', '--dist', path.join(dist, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/has no candidates\.json: build the library first/);
  });

  it('an empty id is a usage error, and a long one is echoed bounded', () => {
    const empty = skillc(['explain', '', '--dist', dist]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/^skillc explain: give the id of a cluster/);
    expect(empty.stderr).not.toMatch(/did you mean/);
    const long = skillc(['explain', 'a'.repeat(100_000), '--dist', dist]);
    expect(long.code).toBe(2);
    expect(long.stderr.length).toBeLessThan(1000);
    expect(long.stderr).toMatch(/\(100000 characters\)/);
    // The cut never splits a surrogate pair: 199 letters and an emoji keep the emoji whole.
    const emoji = skillc(['explain', `${'a'.repeat(199)}😀${'b'.repeat(50)}`, '--dist', dist]);
    expect(emoji.stderr).toContain(`${'a'.repeat(199)}😀…`);
  });
});

/**
 * A damaged or hostile candidates.json: wrong shape, a folder, a symlink out of the dist, a file
 * too large, a record missing what the explanation prints. Each is one line on stderr and exit 2.
 */
describe('skillc explain on a damaged candidates.json', () => {
  let dist: string;
  let scratch: string;
  let copies = 0;
  beforeAll(() => {
    scratch = scratchDir('explain-damaged');
    dist = path.join(scratch, 'dist');
    const r = skillc(['build', 'test/fixtures/verify/risk-curl', '-o', dist, '-q']);
    expect(r.code, r.stderr).toBe(0);
  });

  /** A copy of the dist whose candidates.json `replace` rewrites (it gets the file's path). */
  const damaged = (replace: (file: string) => void): string => {
    const copy = path.join(scratch, `copy-${++copies}`);
    fs.cpSync(dist, copy, { recursive: true });
    const file = path.join(copy, 'candidates.json');
    replace(file);
    return copy;
  };

  const expectOneLineError = (d: string, message: RegExp, id = 'curl-url-sh') => {
    const r = skillc(['explain', id, '--dist', d]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^skillc explain: [^\n]*\n$/);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  };

  it('{} has no candidates list', () => {
    expectOneLineError(damaged((f) => fs.writeFileSync(f, '{}')), /candidates\.json is not a candidates file of skillc build: it has no "candidates" list/);
  });

  it('{"candidates": [1]} has a record without a cluster id', () => {
    expectOneLineError(damaged((f) => fs.writeFileSync(f, '{"candidates": [1]}')), /candidate 0 has no cluster id, profile or contract id/);
  });

  it('a record found but missing what is printed is checked against the schema', () => {
    const d = damaged((f) => {
      const doc = JSON.parse(fs.readFileSync(f, 'utf8')) as { candidates: { profile: Record<string, unknown> }[] };
      for (const c of doc.candidates) delete c.profile['scores'];
      fs.writeFileSync(f, JSON.stringify(doc));
    });
    expectOneLineError(d, /candidate c-[0-9a-f]+ does not match schemas\/candidates\.schema\.json: \/profile must have required property 'scores'/);
  });

  it('a folder in its place', () => {
    expectOneLineError(damaged((f) => { fs.rmSync(f); fs.mkdirSync(f); }), /candidates\.json is a folder, not a file/);
  });

  it.skipIf(process.platform === 'win32')('a symlink out of the dist', () => {
    const outside = path.join(scratch, 'outside.json');
    fs.writeFileSync(outside, fs.readFileSync(path.join(dist, 'candidates.json')));
    expectOneLineError(damaged((f) => { fs.rmSync(f); fs.symlinkSync(outside, f); }), /candidates\.json leads outside the dist through a symbolic link/);
  });

  it('a file over 256 MiB (sparse: refused by its size, not read)', () => {
    expectOneLineError(damaged((f) => fs.truncateSync(f, 256 * 1024 * 1024 + 1)), /candidates\.json is larger than 256 MiB/);
  });

  it('prints control characters from the record escaped', () => {
    const d = damaged((f) => {
      const doc = JSON.parse(fs.readFileSync(f, 'utf8')) as { candidates: { members: { heading: string | null }[] }[] };
      for (const c of doc.candidates) for (const m of c.members) m.heading = 'Install\x1b[2J the\u0007 CLI';
      fs.writeFileSync(f, JSON.stringify(doc));
    });
    const r = skillc(['explain', 'curl-url-sh', '--dist', d]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(r.stdout).toContain('Install\\x1b[2J the\\x07 CLI');
    // --json keeps the exact strings.
    expect(skillc(['explain', 'curl-url-sh', '--dist', d, '--json']).stdout).toContain('Install\\u001b[2J the\\u0007 CLI');
  });
});
