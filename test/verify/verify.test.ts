/**
 * Each verifier check catching the case it exists for, on fixture libraries in
 * test/fixtures/verify/: a misnamed contract (coverage), an over-wide cluster (binding), units
 * entangled in a numbered list (replacement), and curl | sh or shell=True in two parents' fenced
 * blocks (risk, rejected unless declared).
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadLibrary } from '../../src/load/load-library.js';
import { runPipeline } from '../../src/passes/driver.js';
import { parsePass } from '../../src/passes/parse.js';
import { extractContract, type MemberUnit } from '../../src/extract/contract.js';
import type { RiskScanFn } from '../../src/verify/checks.js';
import { decide } from '../../src/verify/decide.js';
import { verifyDraft } from '../../src/verify/verify-draft.js';
import { loadPolicy } from '../../src/policy/policy.js';
import { createRiskScanner } from '../../src/risk/scan.js';
import { languageOf } from '../../src/risk/languages.js';
import type { Cluster, Contract, Profile } from '../../src/ir/types.js';
import { ROOT } from '../helpers/cli.js';

const policy = loadPolicy();
let scan: RiskScanFn;

beforeAll(async () => {
  const scanner = await createRiskScanner();
  scan = (code, lang, file) => {
    const l = languageOf(lang, file);
    return l === null ? [] : scanner.scan(code, l).findings;
  };
});

/** All units of the fixture library whose heading is `heading`, as one cluster. */
async function clusterOf(fixture: string, heading: string): Promise<{ cluster: Cluster; members: MemberUnit[] }> {
  const source = loadLibrary(path.join(ROOT, 'test', 'fixtures', 'verify', fixture));
  const { ir } = await runPipeline({ source }, [parsePass]);
  const members = ir.parents!.flatMap((parent) => parent.units.filter((u) => u.heading === heading).map((unit) => ({ unit, parent })));
  const cluster: Cluster = { id: `c-${fixture}`, units: members.map((m) => m.unit.id), parents: [...new Set(members.map((m) => m.parent.path))], verb: 'install', objects: [], minLinkCosine: 1, origin: 'similarity' };
  return { cluster, members };
}

function draft(cluster: Cluster, members: MemberUnit[]): Contract {
  const d = extractContract(cluster, members);
  if ('reason' in d) throw new Error(`extraction failed: ${d.reason}`);
  return { ...d, id: 'test-contract' };
}

function verify(contract: Contract, members: MemberUnit[]): Profile {
  return verifyDraft(contract, members, scan, policy);
}

describe('coverage catches a misnamed contract', () => {
  it('promotes the honest draft and rejects the same draft under a trigger the text never uses', async () => {
    const { cluster, members } = await clusterOf('coverage', 'Install dependencies');
    const honest = draft(cluster, members);
    expect(honest.templates.map((t) => t.template)).toEqual(['pip install --upgrade --quiet --no-cache-dir --disable-pip-version-check {package}']);
    expect(honest.input_schema).toEqual([expect.objectContaining({ name: 'package', type: 'string', required: true })]);
    const ok = verify(honest, members);
    expect(ok.decision).toBe('auto_promote');
    expect(ok.scores.coverage).toBe(1);
    expect(ok.evidence.some((e) => e.detail === 'package = `pdfplumber`' && e.file === 'pdf-tool/SKILL.md')).toBe(true);

    const misnamed = verify({ ...honest, trigger: 'Deploy the Kubernetes cluster to production' }, members);
    expect(misnamed.decision).toBe('reject');
    expect(misnamed.firstFailed).toBe('coverage');
    expect(misnamed.scores.coverage).toBeLessThan(policy.gates.coverageMin);
  });
});

describe('form catches a procedure nobody would keep', () => {
  it('rejects an assignment, an import, or one short command of a program, before any score', async () => {
    const { cluster, members } = await clusterOf('coverage', 'Install dependencies');
    const honest = draft(cluster, members);
    const as = (template: string) => verify({ ...honest, templates: [{ ...honest.templates[0]!, template }] }, members);
    expect(as('pip install {package}')).toMatchObject({ decision: 'reject', firstFailed: 'form' });
    expect(as('pip install {package}').reason).toMatch(/one short command of `pip`/);
    expect(as('pkg = {package}').reason).toMatch(/only a variable assignment/);
    expect(as('from {package} import main').reason).toMatch(/only an import line/);
    expect(verify(honest, members).firstFailed).toBeNull();
  });
});

describe('binding catches an over-wide cluster', () => {
  it('rejects a cluster where most parents never run the command', async () => {
    const { cluster, members } = await clusterOf('binding', 'Install dependencies');
    expect(cluster.parents).toHaveLength(5);
    const p = verify(draft(cluster, members), members);
    expect(p.firstFailed).toBe('binding');
    expect(p.scores.binding).toBeCloseTo(0.4);
    expect(p.evidence.map((e) => e.parent).sort()).toEqual(['prose-c', 'prose-d', 'prose-e']);
  });
});

describe('replacement catches control flow across the unit boundary', () => {
  it('rejects units whose numbered list continues in the next section', async () => {
    const { cluster, members } = await clusterOf('replacement', 'Install dependencies');
    const p = verify(draft(cluster, members), members);
    expect(p.scores.binding).toBe(1);
    expect(p.firstFailed).toBe('replacement');
    expect(p.evidence[0]!.detail).toMatch(/numbered list continues after it \(step 3 in "Configure"\)/);
    expect(p.evidence[0]!.line).toBe(15);
  });
});

describe('risk catches undeclared unsafe sinks, from syntax trees', () => {
  it('rejects curl | sh in two parents', async () => {
    const { cluster, members } = await clusterOf('risk-curl', 'Install the CLI');
    const p = verify(draft(cluster, members), members);
    expect(p.firstFailed).toBe('risk');
    expect(p.scores.risk).toBeGreaterThanOrEqual(policy.gates.riskMax);
    const pipes = p.risks.filter((r) => r.sink === 'bash.pipe-to-shell').map((r) => [r.file, r.line, r.declared]);
    expect(pipes).toEqual([
      ['inst-a/SKILL.md', 11, false],
      ['inst-b/SKILL.md', 11, false],
    ]);
  });

  it('rejects subprocess.run(..., shell=True) in two parents', async () => {
    const { cluster, members } = await clusterOf('risk-shell', 'Run the command');
    const p = verify(draft(cluster, members), members);
    expect(p.firstFailed).toBe('risk');
    expect(p.risks.filter((r) => r.sink === 'python.shell-true').map((r) => [r.file, r.line])).toEqual([
      ['run-a/SKILL.md', 11],
      ['run-b/SKILL.md', 11],
    ]);
  });

  it('accepts the same curl | sh when every source parent declares it', async () => {
    const { cluster, members } = await clusterOf('risk-declared', 'Install the CLI');
    const contract = draft(cluster, members);
    expect(contract.side_effects.some((s) => s.sinks.includes('bash.pipe-to-shell'))).toBe(true);
    const p = verify(contract, members);
    expect(p.firstFailed).not.toBe('risk');
    expect(p.risks.filter((r) => r.sink === 'bash.pipe-to-shell').every((r) => r.declared)).toBe(true);
  });
});

describe('decision gates and score', () => {
  it('names extraction failure first, and never promotes without a draft', () => {
    const p = decide({ cluster: 'c-x', contract: null, extractionFailure: 'no action lines', scores: { coverage: 1, coverageMin: 1, binding: 1, replacement: 1, risk: 0 }, evidence: { coverage: [], binding: [], replacement: [] }, risks: [] }, policy);
    expect([p.decision, p.firstFailed, p.reason]).toEqual(['reject', 'extraction_failed', 'no action lines']);
  });

  it('computes s from the policy weights and clamps it', async () => {
    const { promotionScore } = await import('../../src/verify/decide.js');
    expect(promotionScore({ coverage: 1, coverageMin: 1, binding: 1, replacement: 1, risk: 0 }, policy)).toBe(1);
    expect(promotionScore({ coverage: 0.5, coverageMin: 0.5, binding: 0.5, replacement: 0, risk: 0 }, policy)).toBeCloseTo((0.5 + 0.35) / 2.2);
    expect(promotionScore({ coverage: 0, coverageMin: 0, binding: 0, replacement: 0, risk: 1 }, policy)).toBe(0);
  });
});
