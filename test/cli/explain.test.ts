import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { skillc } from '../helpers/cli.js';
import { scratchDir } from '../helpers/tmp.js';

describe('skillc explain', () => {
  let dist: string;
  beforeAll(() => {
    dist = path.join(scratchDir('explain'), 'dist');
    const r = skillc(['build', 'test/fixtures/verify/risk-curl', '-o', dist, '-q']);
    expect(r.code, r.stderr).toBe(0);
  });

  it('explains a rejection by contract id: first failed check, risk findings with file:line:col, members', () => {
    const r = skillc(['explain', 'install-cli', '--dist', dist]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/decision: reject {2}\(first failed check: risk\)/);
    expect(r.stdout).toMatch(/inst-a\/SKILL\.md:11:1 {2}bash\.pipe-to-shell \(code-exec, 1\)/);
    expect(r.stdout).toMatch(/members: 2 units from 2 parents/);
    expect(r.stdout).toMatch(/inst-b\/SKILL\.md:8 {2}Install the CLI/);
  });

  it('finds the same candidate by cluster id, and prints JSON on request', () => {
    const byContract = JSON.parse(skillc(['explain', 'install-cli', '--dist', dist, '--json']).stdout);
    const r = skillc(['explain', byContract.cluster.id, '--dist', dist, '--json']);
    expect(JSON.parse(r.stdout).profile.contract).toBe('install-cli');
  });

  it('exits 2 with a suggestion for an unknown id, and for a missing dist', () => {
    const r = skillc(['explain', 'install', '--dist', dist]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no cluster or contract 'install'.*did you mean install-cli/);
    const missing = skillc(['explain', 'x', '--dist', path.join(dist, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read .*candidates\.json: ENOENT/);
  });
});
