/**
 * The verifier policy (rules/policy.json or --policy FILE), validated against
 * schemas/policy.schema.json. A bad policy file is a usage error, reported with the schema errors.
 */
import path from 'node:path';
import { DistReadError, readRegularFile } from '../util/confined-read.js';
import { packageRoot } from '../util/package-root.js';
import { validateAgainst } from '../schema/validate.js';

export interface Policy {
  readonly schemaVersion: 1;
  readonly weights: { readonly binding: number; readonly coverage: number; readonly replacement: number; readonly risk: number };
  readonly gates: { readonly riskMax: number; readonly bindingMin: number; readonly coverageMin: number; readonly replacementMin: number };
  readonly tiers: { readonly autoPromote: number; readonly review: number };
  readonly linkThreshold: Readonly<Record<string, number>> & { readonly tfidf: number };
}

export class PolicyError extends Error {}

export function defaultPolicyPath(): string {
  return path.join(packageRoot(), 'rules', 'policy.json');
}

/** A policy is about a kilobyte; a FIFO, a device or a huge file is refused, not read. */
const MAX_POLICY_BYTES = 1024 * 1024;

export function loadPolicy(file = defaultPolicyPath()): Policy {
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder().decode(readRegularFile(file, MAX_POLICY_BYTES)));
  } catch (err) {
    if (err instanceof DistReadError) throw new PolicyError(`cannot read policy: ${err.message}`);
    throw new PolicyError(`cannot read policy ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const check = validateAgainst('policy', doc);
  if (!check.valid) throw new PolicyError(`policy ${file} does not match schemas/policy.schema.json: ${check.errors.join('; ')}`);
  const policy = doc as Policy;
  if (policy.tiers.review > policy.tiers.autoPromote) throw new PolicyError(`policy ${file}: tiers.review (${policy.tiers.review}) is above tiers.autoPromote (${policy.tiers.autoPromote})`);
  return policy;
}
