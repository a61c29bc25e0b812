/** `skillc calibrate` end to end through the compiled CLI, on the calibration fixture. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, skillc } from '../helpers/cli.js';
import { scratchDir } from '../helpers/tmp.js';
import { validateAgainst } from '../../src/schema/validate.js';

const HOME = path.join(ROOT, 'test/fixtures/calibrate/home');
const AWAY = path.join(ROOT, 'test/fixtures/calibrate/away');
const tmp = scratchDir('calibrate');
const DEFAULT_POLICY = JSON.parse(fs.readFileSync(path.join(ROOT, 'rules/policy.json'), 'utf8'));
const read = (...p: string[]) => fs.readFileSync(path.join(tmp, ...p), 'utf8');

function run(name: string, extra: readonly string[], libs: readonly string[] = [HOME, AWAY]) {
  const r = skillc(['calibrate', ...libs, '-o', path.join(tmp, `${name}.policy.json`), '--report-dir', path.join(tmp, name), ...extra]);
  return { ...r, policy: () => JSON.parse(read(`${name}.policy.json`)), record: () => JSON.parse(read(name, 'calibration.json')) };
}

describe('skillc calibrate', () => {
  // Six negatives can only bound the false-promotion rate to 39%, so this run uses loose targets.
  const loose = ['--fp-target', '0.5', '--review-target', '0.6', '--seed', '3'];

  it('chooses a point, writes a policy that validates, and the report, record and plot', () => {
    const r = run('loose', loose);
    expect(r.code, r.stderr).toBe(0);
    const cal = r.record();
    expect(validateAgainst('calibration', cal)).toEqual({ valid: true, errors: [] });
    expect(cal.choice.kind).toBe('chosen');
    const policy = r.policy();
    expect(validateAgainst('policy', policy)).toEqual({ valid: true, errors: [] });
    expect(policy.tiers).toEqual({ autoPromote: cal.choice.tauAuto, review: cal.choice.tauRev });
    expect({ ...policy, tiers: DEFAULT_POLICY.tiers }).toEqual(DEFAULT_POLICY);
    // Every negative that passed the gates scored below the chosen τ_auto.
    const chosen = cal.grid.find((p: { tauAuto: number; tauRev: number }) => p.tauAuto === cal.choice.tauAuto && p.tauRev === cal.choice.tauRev);
    expect(chosen.feasible).toBe(true);
    expect(chosen.fpUpper).toBeLessThanOrEqual(0.5);
    expect(chosen.recall).toBe(1);
    expect(r.stdout).toContain('## Operating curve');
    expect(r.stdout).toContain('**chosen**');
    expect(r.stdout).toMatch(/\| D_swapped_contract \| negative \| \d+\/30 \|/);
    const svg = read('loose', 'curve.svg');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg.match(/<polyline /g)?.length).toBe(4);
    expect(svg).toContain(`chosen (${cal.choice.tauAuto.toFixed(2)}, ${cal.choice.tauRev.toFixed(2)})`);
    expect(r.stderr).toMatch(/skillc calibrate: A_cross_domain \d+, .* chose \(/);
  });

  it('the same seed gives the same controls, record, plot and policy, byte for byte', () => {
    run('again', loose);
    for (const f of ['calibration.json', 'calibration.md', 'curve.svg']) expect(read('again', f)).toBe(read('loose', f).replaceAll('loose.policy.json', 'again.policy.json'));
    expect(read('again.policy.json')).toBe(read('loose.policy.json'));
  });

  it('skillc build --policy uses the chosen thresholds', () => {
    const cal = JSON.parse(read('loose', 'calibration.json'));
    const out = path.join(tmp, 'dist');
    const b = skillc(['build', HOME, '-o', out, '--policy', path.join(tmp, 'loose.policy.json'), '-q']);
    expect(b.code, b.stderr).toBe(0);
    const candidates = JSON.parse(fs.readFileSync(path.join(out, 'candidates.json'), 'utf8'));
    expect(candidates.policy.tiers).toEqual({ autoPromote: cal.choice.tauAuto, review: cal.choice.tauRev });
    const auto = candidates.candidates.filter((c: { profile: { decision: string } | null }) => c.profile?.decision === 'auto_promote').length;
    expect(auto).toBe(cal.grid.find((p: { tauAuto: number; tauRev: number }) => p.tauAuto === cal.choice.tauAuto && p.tauRev === cal.choice.tauRev).real.auto);
  });

  it('with too few controls for the 5% target: exit 1, says why, and keeps the current policy', () => {
    const r = run('strict', []);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/No point chosen \(infeasible\).*even zero false positives bound the rate only to/);
    expect(r.policy()).toEqual(DEFAULT_POLICY);
    expect(r.record().choice).toMatchObject({ kind: 'kept', reason: 'infeasible' });
  });

  it('the degenerate case: every negative dies at a gate, so it says the thresholds cannot be told apart', () => {
    const strictGates = { ...DEFAULT_POLICY, gates: { ...DEFAULT_POLICY.gates, riskMax: 0 } };
    const file = path.join(tmp, 'gated.json');
    fs.writeFileSync(file, JSON.stringify(strictGates));
    const r = run('degenerate', ['--policy', file, ...loose]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/No point chosen \(degenerate\)\*\*: the controls cannot separate thresholds: all \d+ negative controls were rejected by a gate/);
    expect(r.policy()).toEqual(strictGates);
    expect(r.record().classes.filter((c: { kind: string }) => c.kind === 'negative').every((c: { firstFailed: { form: number; risk: number; score: number }; built: number }) => c.firstFailed.form + c.firstFailed.risk === c.built && c.firstFailed.score === 0)).toBe(true);
    // The zero risk gate is what stops the controls the form gate lets through.
    expect(r.record().classes.some((c: { kind: string; firstFailed: { risk: number } }) => c.kind === 'negative' && c.firstFailed.risk > 0)).toBe(true);
  });

  it('one library: A_cross_domain is reported as not generated', () => {
    const r = run('single', loose, [HOME]);
    expect(r.record().classes[0]).toMatchObject({ name: 'A_cross_domain', built: 0, shortfall: expect.stringContaining('needs a second library') });
    expect(r.stdout).toContain('**not generated: needs a second library');
  });

  it('usage errors exit 2', () => {
    expect(skillc(['calibrate', HOME, '--fp-target', '0.1', '--review-target', '0.05']).code).toBe(2);
    expect(skillc(['calibrate', HOME, '--fp-target', '1.5']).code).toBe(2);
    const missing = skillc(['calibrate', path.join(tmp, 'no-such-library'), '-o', path.join(tmp, 'x.json'), '--report-dir', path.join(tmp, 'x')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/skillc calibrate: /);
  });

  it('--help names the control classes, the search rule and the exit codes', () => {
    const h = skillc(['calibrate', '--help']).stdout;
    for (const s of ['A_cross_domain', 'B_same_domain_distinct', 'C_near_miss', 'D_swapped_contract', 'P_recurring', '--per-class', '--fp-target', 'Exit codes']) expect(h).toContain(s);
  });
});
