/**
 * Pass 1b, passages (SPEC §2 "Before mining", issue 18): skills whose SKILL.md is byte for byte an
 * earlier one's are marked as copies (mined once), and sections whose body recurs in three or more
 * skills, verbatim or with only names and numbers changed, become shared passages
 * (passages/detect.ts). Whether a skeleton references a passage is the rewrite pass's decision:
 * like a call-site, a reference must pay. With a build cache, each parent's body keys and each
 * group's passage are kept (pass-memo.ts): a rebuild splits again only the changed skills' sections.
 * A parse process gives each parent it parsed its body keys (parse-worker.ts), so a cold build
 * does not split every section again here.
 */
import type { Parent, Passage } from '../ir/types.js';
import { detectPassages, type BodyKey, type PassageMemo } from '../passages/detect.js';
import { passageMemo } from './pass-memo.js';
import type { Pass } from './pass.js';

export const passagesPass: Pass = {
  name: 'passages',
  description: 'byte-identical skills found by hash (mined once) and sections shared by three or more skills',
  version: 1,
  requires: ['parents'],
  provides: ['copies', 'passages'],
  run(ir, ctx) {
    const parents = ir.parents!;
    const firstByHash = new Map<string, string>();
    const copies: { copy: string; of: string }[] = [];
    for (const p of parents) {
      const of = firstByHash.get(p.sha256);
      if (of === undefined) firstByHash.set(p.sha256, p.path);
      else copies.push({ copy: p.path, of });
    }
    ctx.progress(1, 2);
    const memo = passageMemo(ctx.cache);
    const found = detectPassages(parents, new Set(copies.map((c) => c.copy)), withParsedKeys(parents, ir.sectionKeys, memo?.memo));
    memo?.save();
    // A copy holds the same sections as its original at the same offsets: it is a member wherever
    // the original is (it did not count towards the three skills a passage needs).
    const byPath = new Map(parents.map((p) => [p.path, p]));
    const copiesOf = new Map<string, string[]>();
    for (const c of copies) copiesOf.set(c.of, [...(copiesOf.get(c.of) ?? []), c.copy]);
    const passages: Passage[] = found.map((p) => ({
      ...p,
      members: p.members.flatMap((m) => [
        m,
        ...(copiesOf.get(m.parent) ?? []).map((copy) => {
          const twin = byPath.get(copy)!;
          const unit = twin.units[Number(m.unit.slice(m.unit.lastIndexOf('#') + 1))]!;
          return { ...m, parent: copy, unit: unit.id, file: twin.file };
        }),
      ]),
    }));
    ctx.progress(2, 2);
    return { copies, passages };
  },
};

/**
 * The memo detectPassages asks, with the section-body keys the parse processes computed (a parse
 * from the cache has none): a parent's keys are those when there are some, else computed, and
 * either way kept in the build cache's memo like any computed value. Keys that do not match the
 * bodies are caught as kept ones are (detectPassages then computes every key again).
 */
function withParsedKeys(parents: readonly Parent[], parsed: readonly (readonly BodyKey[] | null)[] | undefined, memo: PassageMemo | undefined): PassageMemo | undefined {
  if (!parsed || parsed.length !== parents.length || parsed.every((k) => k === null)) return memo;
  const byParent = new Map<Parent, readonly BodyKey[]>();
  parents.forEach((p, i) => parsed[i] && byParent.set(p, parsed[i]));
  const fromParse = (p: Parent, compute: () => BodyKey[]) => () => {
    const keys = byParent.get(p);
    return keys ? [...keys] : compute();
  };
  return {
    bodyKeys: (p, compute) => (memo ? memo.bodyKeys(p, fromParse(p, compute)) : fromParse(p, compute)()),
    group: (members, compute) => (memo ? memo.group(members, compute) : compute()),
  };
}
