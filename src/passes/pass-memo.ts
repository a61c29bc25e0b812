/**
 * Results of the passes after parse kept in the build cache (issue 22), each a function of a few
 * parents rather than of the whole library:
 * - extract: a cluster's contract draft, from the cluster's identity and members (contract.ts DraftInput);
 * - verify: a draft's profile, from the draft, its members and the policy;
 * - bind: a candidate call-site's detection and deterministic bindings, from the contract and the unit;
 * - passages: a parent's body keys (passages/detect.ts BodyKey), and a group's passage, from its members.
 * A rebuild where one skill changed computes again only the results with a unit of that skill,
 * or whose cluster or contract changed; the others are read back from one memo table per pass.
 *
 * A key is the SHA-256 of the stable JSON of what the result is computed from and of each member
 * parent's parse inputs (cache/keys.ts parentInputs), which determine the whole parent: a check
 * may look at a member's neighbouring unit, so the parent is keyed, not only the unit. The code
 * fingerprint in each memo table's entry key covers the extractor, the verifier, the binder, the
 * lexicon and the risk scanner. A value read back is used only if it has the shape of a result.
 */
import type { Contract, ExtractionFailure, Profile } from '../ir/types.js';
import type { MemberUnit } from '../extract/contract.js';
import type { BindingCheck, Detection, MatchedLine } from '../bind/call-site.js';
import { isValidPart } from '../schema/validate.js';
import type { BodyKey, PassageDraft, PassageMemo } from '../passages/detect.js';
import { MemoTable } from '../cache/memo.js';
import type { CacheStore } from '../cache/store.js';
import { parentKey } from '../cache/keys.js';
import { sha256 } from '../util/hash.js';
import { stableStringify } from '../util/stable-json.js';

/** The key of a result computed from `what` over `members`. */
export function membersKey(what: unknown, members: readonly MemberUnit[]): string {
  const parents = [...new Set(members.map((m) => m.parent))].map(parentKey);
  return sha256(stableStringify([what, members.map((m) => m.unit.id), parents], 0));
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * A draft as extractContract returns it: a failure with its reason, or a contract that is valid
 * against schemas/contract.schema.json once it has an id (drafts get theirs later in the pass).
 */
export function isDraft(v: unknown): v is Contract | ExtractionFailure {
  if (!isObject(v) || typeof v['cluster'] !== 'string') return false;
  if ('reason' in v) return typeof v['reason'] === 'string' && Object.keys(v).length === 2;
  return v['id'] === '' && isValidPart('contract', '', { ...v, id: 'kept' });
}

/** A profile as verifyDraft returns it: valid against the profile of schemas/candidates.schema.json. */
export function isProfile(v: unknown): v is Profile {
  return isValidPart('candidates', '/properties/candidates/items/properties/profile', v);
}

/**
 * A candidate call-site as the bind pass decides it without a model: its detection and, when
 * detected, the deterministic bindings' check.
 */
export interface CandidateOutcome {
  readonly detection: Detection;
  readonly deterministic?: BindingCheck;
}

/** How an outcome is kept: each matched line names its template by its index in the contract's. */
export interface KeptOutcome {
  readonly detection: { readonly ok: false; readonly stage: 'detect'; readonly reason: string; readonly matched: number } | { readonly ok: true; readonly matched: readonly (Omit<MatchedLine, 'template'> & { readonly template: number })[] };
  readonly deterministic?: BindingCheck;
}

const isText = (v: unknown): v is string => typeof v === 'string';
const isTextRecord = (v: unknown) => isObject(v) && Object.values(v).every(isText);
const isLine = (v: unknown) => Number.isInteger(v) && (v as number) >= 1;

function isBindingCheck(v: unknown): v is BindingCheck {
  if (!isObject(v)) return false;
  if (v['ok'] === false) return isText(v['stage']) && isText(v['reason']);
  return (
    v['ok'] === true &&
    isTextRecord(v['bindings']) &&
    Array.isArray(v['actions']) &&
    v['actions'].length > 0 &&
    v['actions'].every((a: unknown) => isObject(a) && isText(a['template']) && isLine(a['line']) && isText(a['text']))
  );
}

export function isKeptOutcome(v: unknown): v is KeptOutcome {
  if (!isObject(v) || !isObject(v['detection'])) return false;
  const d = v['detection'];
  if (d['ok'] === false) return d['stage'] === 'detect' && isText(d['reason']) && Number.isInteger(d['matched']) && v['deterministic'] === undefined;
  return (
    d['ok'] === true &&
    Array.isArray(d['matched']) &&
    d['matched'].length > 0 &&
    d['matched'].every((m: unknown) => isObject(m) && Number.isInteger(m['template']) && (m['template'] as number) >= 0 && isLine(m['line']) && isText(m['text']) && isTextRecord(m['values'])) &&
    isBindingCheck(v['deterministic'])
  );
}

/** The outcome as kept, or null if a matched line's template is not one of the contract's (then it is not kept). */
export function keptOutcome(o: CandidateOutcome, contract: Contract): KeptOutcome | null {
  if (!o.detection.ok) return { detection: o.detection };
  const matched = o.detection.matched.map((m) => ({ template: contract.templates.indexOf(m.template), line: m.line, text: m.text, values: m.values }));
  return matched.some((m) => m.template < 0) ? null : { detection: { ok: true, matched }, deterministic: o.deterministic! };
}

/** A kept outcome with its templates the contract's own, or null if one is out of its range. */
export function restoredOutcome(k: KeptOutcome, contract: Contract): CandidateOutcome | null {
  if (!k.detection.ok) return { detection: k.detection };
  if (k.detection.matched.some((m) => m.template >= contract.templates.length)) return null;
  // In the order detectUnit makes them (template, line, text, values).
  return { detection: { ok: true, matched: k.detection.matched.map((m) => ({ template: contract.templates[m.template]!, line: m.line, text: m.text, values: m.values })) }, deterministic: k.deterministic! };
}

/** Keys of one contract's candidates: the contract's stable JSON is hashed once, not per candidate. */
export function candidateKeys(contract: Contract): (m: MemberUnit) => string {
  const c = sha256(stableStringify(contract, 0));
  return (m) => sha256(`bind\0${c}\0${m.unit.id}\0${parentKey(m.parent)}`);
}

export const CANDIDATE_MEMO = 'bind-candidates';

export function candidateMemo(cache: CacheStore | undefined): MemoTable<KeptOutcome> | undefined {
  return cache ? MemoTable.load(cache, CANDIDATE_MEMO, isKeptOutcome) : undefined;
}

export const DRAFT_MEMO = 'extract-drafts';
export const PROFILE_MEMO = 'verify-profiles';

export function draftMemo(cache: CacheStore | undefined): MemoTable<Contract | ExtractionFailure> | undefined {
  return cache ? MemoTable.load(cache, DRAFT_MEMO, isDraft) : undefined;
}

export function profileMemo(cache: CacheStore | undefined): MemoTable<Profile> | undefined {
  return cache ? MemoTable.load(cache, PROFILE_MEMO, isProfile) : undefined;
}

export function isBodyKeys(v: unknown): v is BodyKey[] {
  return Array.isArray(v) && v.every((k: unknown) => isObject(k) && Number.isInteger(k['unit']) && (k['unit'] as number) >= 0 && isText(k['exact']) && isText(k['masked']) && typeof k['short'] === 'boolean');
}

export function isPassageDraft(v: unknown): v is PassageDraft | null {
  if (v === null) return true;
  if (!isObject(v) || !isText(v['heading']) || !isText(v['text']) || !Array.isArray(v['slots']) || !v['slots'].every(isText) || !Array.isArray(v['members'])) return false;
  return v['members'].every(
    (m: unknown) =>
      isObject(m) && isText(m['parent']) && isText(m['unit']) && isText(m['file']) && Number.isInteger(m['line']) && Number.isInteger(m['start']) && Number.isInteger(m['end']) && isTextRecord(m['bindings']),
  );
}

export const BODY_KEYS_MEMO = 'passage-body-keys';
export const PASSAGE_GROUP_MEMO = 'passage-groups';

/** The passages pass's memo tables, as detectPassages asks them, and how to keep them. */
export function passageMemo(cache: CacheStore | undefined): { memo: PassageMemo; save(): void } | undefined {
  if (!cache) return undefined;
  const bodies = MemoTable.load(cache, BODY_KEYS_MEMO, isBodyKeys);
  const groups = MemoTable.load(cache, PASSAGE_GROUP_MEMO, isPassageDraft);
  return {
    memo: {
      // Kept keys name this parent's units in order; a kept passage names the group's members.
      bodyKeys: (p, compute) => bodies.through(parentKey(p), compute, (keys) => keys.every((k, i) => k.unit < p.units.length && (i === 0 || k.unit > keys[i - 1]!.unit))),
      group: (members, compute) =>
        groups.through(
          sha256(stableStringify(members.map((m) => [parentKey(m.parent), m.unit]), 0)),
          compute,
          (d) => d === null || (d.members.length === members.length && d.members.every((x, i) => x.parent === members[i]!.parent.path && x.unit === members[i]!.parent.units[members[i]!.unit]?.id)),
        ),
    },
    save() {
      bodies.save();
      groups.save();
    },
  };
}

