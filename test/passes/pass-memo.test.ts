/**
 * Results of passes kept between builds (passes/pass-memo.ts): a build with a cache stores a
 * draft, a profile, a candidate outcome, a parent's body keys and a group's passage that the next
 * build can use (every stored value passes its shape check and answers its key), the results read
 * back are those a build computes, keys follow the parents they are made from, and a value of the
 * wrong shape is refused. Also: the untokenised action lines propose reads are actionLines' own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadLibrary } from '../../src/load/load-library.js';
import { loadPolicy } from '../../src/policy/policy.js';
import { runPipeline } from '../../src/passes/driver.js';
import { PASSES } from '../../src/passes/registry.js';
import { CacheStore } from '../../src/cache/store.js';
import { unitIndex } from '../../src/passes/extract.js';
import { draftInputOf, extractContract } from '../../src/extract/contract.js';
import { keptOutcome, restoredOutcome, BODY_KEYS_MEMO, CANDIDATE_MEMO, DRAFT_MEMO, PASSAGE_GROUP_MEMO, PROFILE_MEMO, candidateKeys, candidateMemo, draftMemo, isKeptOutcome, isDraft, isProfile, isBodyKeys, isPassageDraft, membersKey, passageMemo, profileMemo } from '../../src/passes/pass-memo.js';
import { decodeValue, encodeValue } from '../../src/cache/codec.js';
import { MemoTable } from '../../src/cache/memo.js';
import { parentKey } from '../../src/cache/keys.js';
import type { BuildIR } from '../../src/ir/types.js';
import { bodyKeysOf, detectPassages, type BodyKey, type PassageDraft, type PassageMemo } from '../../src/passages/detect.js';
import { actionLineTexts, actionLines } from '../../src/extract/action-lines.js';
import { alignedBindings, checkBindings, detectUnit } from '../../src/bind/call-site.js';
import { parentOf } from '../helpers/skill.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function build(library: string, cache?: CacheStore): Promise<BuildIR> {
  return (await runPipeline({ source: loadLibrary(library), policy: loadPolicy() }, PASSES, {}, 1, undefined, cache)).ir;
}

function tempCache(): CacheStore {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillc-pass-memo-'));
  dirs.push(dir);
  return new CacheStore(dir);
}

/** The IR a later pass would see from these fields, as JSON (the cache's own entries aside). */
const results = (ir: BuildIR) =>
  JSON.stringify({ copies: ir.copies, passages: ir.passages, clusters: ir.clusters, contracts: ir.contracts, failures: ir.extractionFailures, profiles: ir.profiles, callSites: ir.callSites, dropped: ir.droppedCallSites, rewrites: ir.rewrites, passageUse: ir.passageUse });

describe.each(['never-rewrite', 'cli-automation'])('pass memo on test/fixtures/%s', (fixture) => {
  const library = path.resolve('test/fixtures', fixture);

  it('stores every draft, profile and candidate outcome so that the next build reads it back, and gives the same results', async () => {
    const cold = await build(library);
    expect(cold.contracts!.length).toBeGreaterThan(0);
    expect(cold.callSites!.length).toBeGreaterThan(0);
    const cache = tempCache();
    expect(results(await build(library, cache))).toBe(results(cold));

    const index = unitIndex(cold.parents!);
    const drafts = draftMemo(cache)!;
    for (const c of cold.clusters!) expect(drafts.has(membersKey({ pass: 'extract', cluster: draftInputOf(c) }, c.units.map((id) => index.get(id)!)))).toBe(true);
    const profiles = profileMemo(cache)!;
    const byCluster = new Map(cold.contracts!.map((c) => [c.cluster, c]));
    for (const c of cold.clusters!) {
      const contract = byCluster.get(c.id);
      if (contract) expect(profiles.has(membersKey({ pass: 'verify', contract, policy: cold.policy }, c.units.map((id) => index.get(id)!)))).toBe(true);
    }
    const candidates = candidateMemo(cache)!;
    for (const cs of cold.callSites!) {
      const contract = cold.contracts!.find((c) => c.id === cs.contract)!;
      expect(candidates.has(candidateKeys(contract)(index.get(cs.unit)!))).toBe(true);
    }

    const passages = passageMemo(cache)!.memo;
    const copies = new Set((cold.copies ?? []).map((c) => c.copy));
    for (const p of cold.parents!) {
      if (p.bounded || p.malicious || copies.has(p.path) || p.encoding === 'utf-8-invalid') continue;
      expect(passages.bodyKeys(p, () => { throw new Error(`${p.path}: body keys not kept`); })).toEqual(bodyKeysOf(p));
    }

    // Read back: the same results, now without computing them.
    expect(results(await build(library, cache))).toBe(results(cold));
  });

  it('keeps a candidate outcome by template index and gives it back as it was, key order included', async () => {
    const ir = await build(library);
    const index = unitIndex(ir.parents!);
    let n = 0;
    for (const cs of ir.callSites!) {
      const contract = ir.contracts!.find((c) => c.id === cs.contract)!;
      const { unit, parent } = index.get(cs.unit)!;
      const detection = detectUnit(contract, parent, unit, actionLines(unit));
      if (!detection.ok) continue;
      const outcome = { detection, deterministic: checkBindings(contract, unit, detection.matched, alignedBindings(detection.matched)) };
      const kept = keptOutcome(outcome, contract)!;
      expect(isKeptOutcome(decodeValue(encodeValue(kept)))).toBe(true);
      const back = restoredOutcome(decodeValue(encodeValue(kept)) as typeof kept, contract)!;
      expect(JSON.stringify(back)).toBe(JSON.stringify(outcome));
      expect(back.detection.ok && back.detection.matched.every((m) => contract.templates.includes(m.template))).toBe(true);
      n++;
    }
    expect(n).toBeGreaterThan(0);
  });

  it('accepts every real result in its stored form and refuses broken ones', async () => {
    const ir = await build(library);
    const stored = (v: unknown) => decodeValue(encodeValue(v));
    for (const c of ir.contracts!) expect(isDraft(stored({ ...c, id: '' }))).toBe(true);
    expect(isDraft(stored(ir.contracts![0]))).toBe(false);
    for (const f of ir.extractionFailures!) expect(isDraft(stored(f))).toBe(true);
    for (const p of ir.profiles!) expect(isProfile(stored(p))).toBe(true);
    const contract = ir.contracts![0]!;
    for (const bad of [null, [], { ...contract, templates: ['a {x}'] }, { ...contract, templates: undefined }, { ...contract, cluster: 3 }, { cluster: 'c-1', reason: 4 }]) expect(isDraft(bad)).toBe(false);
    const profile = ir.profiles![0]!;
    for (const bad of [{ ...profile, decision: 'maybe' }, { ...profile, score: '1' }, { ...profile, evidence: null }]) expect(isProfile(bad)).toBe(false);
    const actions = [{ template: 'go to {x}', line: 3, text: 'go to desk 1' }];
    const matched = [{ template: 0, line: 3, text: 'go to desk 1', values: { x: 'desk 1' } }];
    const good = { detection: { ok: true, matched }, deterministic: { ok: true, bindings: { x: 'desk 1' }, actions } };
    expect(isKeptOutcome(good)).toBe(true);
    expect(isKeptOutcome({ detection: { ok: false, stage: 'detect', reason: 'no line', matched: 0 } })).toBe(true);
    for (const bad of [
      { detection: { ok: true, matched } },
      { ...good, deterministic: { ok: true, bindings: { x: 1 }, actions } },
      { ...good, deterministic: { ok: true, bindings: { x: 'desk 1' }, actions: [] } },
      { ...good, detection: { ok: true, matched: [] } },
      { ...good, detection: { ok: true, matched: [{ ...matched[0], line: '3' }] } },
      { ...good, detection: { ok: true, matched: [{ ...matched[0], template: -1 }] } },
      { ...good, detection: { ok: true, matched: [{ ...matched[0], template: { template: 'go to {x}' } }] } },
      { detection: { ok: false, stage: 'bind', reason: 'x', matched: 0 } },
      { detection: { ok: false, stage: 'detect', reason: 'x', matched: 0 }, deterministic: good.deterministic },
    ]) expect(isKeptOutcome(bad)).toBe(false);
    // Drafts and profiles are checked against the schemas of what they become.
    expect(isDraft({ ...contract, id: '', templates: contract.templates.map(({ slots: _s, ...t }) => t) })).toBe(false);
    expect(isDraft({ ...contract, id: '', trigger: '' })).toBe(false);
    expect(isDraft({ cluster: 'c-1', reason: 'x', extra: 1 })).toBe(false);
    expect(isProfile({ ...profile, scores: {} })).toBe(false);
    expect(isProfile({ ...profile, firstFailed: 'bogus' })).toBe(false);
  });
});

describe('pass memo keys', () => {
  it('follow every parse input of a member parent, and not a cluster score the draft does not read', async () => {
    const ir = await build(path.resolve('test/fixtures/cli-automation'));
    const index = unitIndex(ir.parents!);
    const cluster = ir.clusters![0]!;
    const members = cluster.units.map((id) => index.get(id)!);
    const key = membersKey({ pass: 'extract', cluster: draftInputOf(cluster) }, members);
    const m0 = members[0]!;
    const script = { path: `${m0.parent.path}/scripts/run.sh`, relPath: 'scripts/run.sh', kind: 'script' as const, bytes: 4, sha256: '1'.repeat(64) };
    for (const changed of [{ ...m0.parent, sha256: '0'.repeat(64) }, { ...m0.parent, mode: (m0.parent.mode ?? 0o644) ^ 0o100 }, { ...m0.parent, scripts: [...m0.parent.scripts, script] }, { ...m0.parent, file: `${m0.parent.file}.md` }]) {
      expect(parentKey(changed)).not.toBe(parentKey(m0.parent));
      expect(membersKey({ pass: 'extract', cluster: draftInputOf(cluster) }, [{ ...m0, parent: changed }, ...members.slice(1)])).not.toBe(key);
    }
    expect(membersKey({ pass: 'extract', cluster: draftInputOf({ ...cluster, units: [...cluster.units].reverse() }) }, members)).not.toBe(key);
    // A cluster's link score moves with the whole library's TF-IDF weights; its draft does not.
    const moved = { ...cluster, minLinkCosine: cluster.minLinkCosine / 2, objects: ['other'] };
    expect(membersKey({ pass: 'extract', cluster: draftInputOf(moved) }, members)).toBe(key);
    expect(JSON.stringify(extractContract(draftInputOf(moved), members))).toBe(JSON.stringify(extractContract(draftInputOf(cluster), members)));
  });
});

describe('passage memo', () => {
  const PITFALLS = '- Never hardcode a tool slug: search for it first.\n- Check that the connection is ACTIVE before any call.\n- Keep paging while a response holds a token.';
  const skill = (name: string, n: number) =>
    parentOf(name, `---\nname: ${name}\ndescription: The ${name} skill.\n---\n\n# ${name}\n\n## Known pitfalls\n\n${PITFALLS}\n\n## Limits\n\nCall the ${name} toolkit at most ${n} times a minute, and keep the ${name} session open between calls.\n`);
  const parents = ['alpha', 'bravo', 'charlie', 'delta'].map((n, i) => skill(n, 10 + i));

  it('gives the passages of a cold detection when every key and group is read back, and asks again only for a changed parent', () => {
    const cold = detectPassages(parents);
    expect(cold.map((p) => p.slots.length).sort()).toEqual([0, 2]);
    const keys = new Map<string, unknown>();
    const groups = new Map<string, unknown>();
    const asked: string[] = [];
    const memo: PassageMemo = {
      bodyKeys: (p, compute) => {
        const k = parentKey(p);
        if (!keys.has(k)) {
          asked.push(p.path);
          keys.set(k, decodeValue(encodeValue(compute())));
        }
        return keys.get(k) as BodyKey[];
      },
      group: (members, compute) => {
        const k = JSON.stringify(members.map((m) => [parentKey(m.parent), m.unit]));
        if (!groups.has(k)) groups.set(k, decodeValue(encodeValue(compute())));
        return groups.get(k) as PassageDraft | null;
      },
    };
    expect(detectPassages(parents, new Set(), memo)).toEqual(cold);
    expect(asked).toEqual(['alpha', 'bravo', 'charlie', 'delta']);
    const keptOnly: PassageMemo = {
      ...memo,
      group: (members) => {
        const k = JSON.stringify(members.map((m) => [parentKey(m.parent), m.unit]));
        if (!groups.has(k)) throw new Error('a group kept by its members must not be made again');
        return groups.get(k) as PassageDraft | null;
      },
    };
    expect(detectPassages(parents, new Set(), keptOnly)).toEqual(cold);
    asked.length = 0;
    const changed = [...parents.slice(0, 3), skill('delta', 99)];
    expect(detectPassages(changed, new Set(), memo)).toEqual(detectPassages(changed));
    expect(asked).toEqual(['delta']);
  });

  it('refuses kept body keys and passages of the wrong shape', () => {
    const [passage] = detectPassages(parents);
    const { id: _id, ...draft } = passage!;
    expect(isPassageDraft(decodeValue(encodeValue(draft)))).toBe(true);
    expect(isPassageDraft(null)).toBe(true);
    for (const bad of [{ ...draft, slots: [1] }, { ...draft, members: [{ ...draft.members[0], start: '0' }] }, { ...draft, members: [{ ...draft.members[0], bindings: { x: 1 } }] }, { ...draft, text: undefined }]) expect(isPassageDraft(bad)).toBe(false);
    const keys = bodyKeysOf(parents[0]!);
    expect(isBodyKeys(decodeValue(encodeValue(keys)))).toBe(true);
    for (const bad of [null, [{ ...keys[0], unit: -1 }], [{ ...keys[0], unit: 1.5 }], [{ ...keys[0], exact: 3 }], [{ unit: 0, exact: 'a' }]]) expect(isBodyKeys(bad)).toBe(false);
  });

  it('keys a body by its exact text and by its text with names and numbers masked', () => {
    const [a, b] = [bodyKeysOf(parents[0]!), bodyKeysOf(parents[1]!)];
    expect(a.map((k) => k.unit)).toEqual(b.map((k) => k.unit));
    expect(a[0]!.exact).toBe(b[0]!.exact);
    expect(a[1]!.exact).not.toBe(b[1]!.exact);
    expect(a[1]!.masked).toBe(b[1]!.masked);
  });
});

describe('action line texts', () => {
  it('are the action lines without their tokens, for every unit of the fixtures', async () => {
    for (const fixture of ['alfworld', 'cli-automation', 'never-rewrite']) {
      const ir = await build(path.resolve('test/fixtures', fixture));
      let lines = 0;
      for (const p of ir.parents!)
        for (const u of p.units) {
          const full = actionLines(u);
          lines += full.length;
          expect(actionLineTexts(u)).toEqual(full.map(({ tokens: _t, spaced: _s, ...rest }) => rest));
          for (const l of full) expect(Object.keys(l)).toEqual(['unit', 'source', 'shell', 'text', 'tokens', 'spaced', 'line']);
        }
      expect(lines).toBeGreaterThan(10);
    }
  });
});

describe.each(['passages', 'cli-automation'])('forged memo entries on test/fixtures/%s', (fixture) => {
  it('are refused or found out: a build over entries of the right shape but for other inputs gives the cold results', async () => {
    const library = path.resolve('test/fixtures', fixture);
    const cold = await build(library);
    const cache = tempCache();
    await build(library, cache);
    const index = unitIndex(cold.parents!);
    // Entries with a valid shape and a correct store hash, holding what another input would give.
    const drafts = MemoTable.load(cache, DRAFT_MEMO, isDraft);
    const clusters = cold.clusters!;
    clusters.forEach((c, i) => {
      const other = clusters[(i + 1) % clusters.length]!;
      const draft = extractContract(draftInputOf(other), other.units.map((id) => index.get(id)!));
      drafts.put(membersKey({ pass: 'extract', cluster: draftInputOf(c) }, c.units.map((id) => index.get(id)!)), draft);
    });
    drafts.save();
    const profiles = MemoTable.load(cache, PROFILE_MEMO, isProfile);
    const byCluster = new Map(cold.contracts!.map((c) => [c.cluster, c]));
    for (const c of clusters) {
      const contract = byCluster.get(c.id);
      const profile = cold.profiles!.find((p) => p.cluster !== c.id && p.contract !== null);
      if (contract && profile) profiles.put(membersKey({ pass: 'verify', contract, policy: cold.policy }, c.units.map((id) => index.get(id)!)), profile);
    }
    profiles.save();
    const candidates = MemoTable.load(cache, CANDIDATE_MEMO, isKeptOutcome);
    for (const cs of cold.callSites!) {
      const contract = cold.contracts!.find((c) => c.id === cs.contract)!;
      candidates.put(candidateKeys(contract)(index.get(cs.unit)!), { detection: { ok: true, matched: [{ template: contract.templates.length, line: 1, text: 'x', values: {} }] }, deterministic: { ok: true, bindings: {}, actions: [{ template: 'x', line: 1, text: 'x' }] } });
    }
    candidates.save();
    // Body keys: a parent outside a passage claims its hashes for one of its own bodies (so that
    // it groups with the passage's members), and another names a unit it does not have.
    const bodies = MemoTable.load(cache, BODY_KEYS_MEMO, isBodyKeys);
    const eligible = cold.parents!.filter((p) => !p.bounded && !p.malicious && p.encoding !== 'utf-8-invalid' && bodyKeysOf(p).length > 0);
    const passage = cold.passages![0];
    if (passage) {
      const member = passage.members[0]!;
      const owner = cold.parents!.find((p) => p.path === member.parent)!;
      const claimed = bodyKeysOf(owner).find((k) => owner.units[k.unit]!.id === member.unit)!;
      const outsider = eligible.find((p) => !passage.members.some((m) => m.parent === p.path))!;
      bodies.put(parentKey(outsider), bodyKeysOf(outsider).map((k, i) => (i === 0 ? { ...k, exact: claimed.exact, masked: claimed.masked } : k)));
    }
    const last = eligible.at(-1)!;
    bodies.put(parentKey(last), [{ unit: last.units.length + 5, exact: 'x', masked: 'y', short: false }]);
    bodies.save();
    const groups = MemoTable.load(cache, PASSAGE_GROUP_MEMO, isPassageDraft);
    groups.save();

    expect(results(await build(library, cache))).toBe(results(cold));
    expect(cold.clusters!.length + cold.callSites!.length).toBeGreaterThan(0);
    if (fixture === 'passages') expect(cold.passages!.length).toBeGreaterThan(0);
  });
});
