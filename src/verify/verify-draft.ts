/**
 * Verifies one contract draft against its cluster's member units: schema check, the four checks,
 * then the decision. The verify pass runs this per cluster; tests run it on fixture clusters.
 */
import type { Contract, Profile } from '../ir/types.js';
import type { MemberUnit } from '../extract/contract.js';
import type { Policy } from '../policy/policy.js';
import { validateAgainst } from '../schema/validate.js';
import { binding, coverage, replacement, risk, type RiskScanFn } from './checks.js';
import { decide } from './decide.js';
import { commentSlots, oneProgramCommand, subcommandSlot, unkeptForm } from '../extract/statement.js';

export function verifyDraft(contract: Contract, members: readonly MemberUnit[], scan: RiskScanFn, policy: Policy): Profile {
  const schema = validateAgainst('contract', JSON.parse(JSON.stringify(contract)));
  const whole = oneProgramCommand(contract);
  const formErrors = [
    ...contract.templates.flatMap((t) => {
      const why = unkeptForm(t.template, t.source);
      return why ? [`\`${t.template}\` — ${why}`] : [];
    }),
    ...(whole ? [whole] : []),
    ...[subcommandSlot(contract), commentSlots(contract)].filter((why): why is string => why !== null),
  ];
  const cov = coverage(contract, members);
  const bind = binding(contract, members);
  const rep = replacement(contract, members);
  const rk = risk(contract, members, scan, policy.gates.riskMax);
  return decide({
    cluster: contract.cluster,
    contract,
    schemaErrors: schema.errors,
    formErrors,
    scores: { coverage: cov.score, coverageMin: cov.min, binding: bind.score, replacement: rep.score, risk: rk.score },
    evidence: { coverage: cov.evidence, binding: bind.evidence, replacement: rep.evidence },
    risks: rk.hits,
  }, policy);
}
