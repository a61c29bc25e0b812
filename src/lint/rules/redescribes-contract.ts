/**
 * redescribes-contract: a section spells out the procedure of a contract the built library
 * (--dist) already promoted; it should call the contract instead. Needs --dist.
 */
import path from 'node:path';
import { NO_OPTIONS } from './helpers.js';
import type { LintRule, LintSubject } from '../types.js';
import type { DistContract, LintDist } from '../dist.js';
import { sha256 } from '../../util/hash.js';

export const redescribesContract: LintRule = {
  meta: {
    id: 'redescribes-contract',
    category: 'library',
    summary: 'a section re-describes the procedure of a promoted contract of the built library',
    doc: 'With `--dist <dir>` (the output of `skillc build`), this rule reports each section that the build would take for a call-site of one of that library\'s auto-promoted contracts: its verb class (from the heading or first step) is the contract\'s, its action lines instantiate the contract\'s templates, and the values they bind pass the build\'s checks (every required input bound to text of the section, each matched line given back exactly by its template, the section replaceable by one line). Such a section is a second copy of a procedure the library already maintains as a contract: when the contract is fixed or improved the copy is not, and an agent reads the steps twice. Replace the section\'s steps with the suggested `invoke(...)` line, which names the contract and the values this section used. A skill that is one of the contract\'s source parents is reported too, and the message says whether `skillc build` rewrote the section to that invoke or left it as written (an invoke is written only where it reproduces the replaced code block token for token and the library gets smaller with it).',
    defaultLevel: 'warn',
    fixable: false,
    needsDist: true,
    ...NO_OPTIONS,
  },
  async check(ctx) {
    const dist = await ctx.services.dist();
    if (!dist) return;
    // Already loaded by the services, so this costs nothing; importing it statically would make
    // every lint run load the binder.
    const { boundUnits } = await import('../dist.js');
    const { subject } = ctx;
    for (const b of boundUnits(dist, subject.parent)) {
      const { contract } = b.entry;
      const where = b.unit.heading === null ? 'the preamble' : `section '${b.unit.heading}'`;
      const lines = b.actions.length === 1 ? '1 line instantiates its templates' : `${b.actions.length} lines instantiate its templates`;
      const source = sourceParentOf(dist, b.entry, subject);
      const advice = source === null
        ? 'call the contract instead'
        : b.entry.rewrittenIn.has(source)
          ? `this skill is its source parent '${source}', so skillc build rewrites the section to the invoke`
          : `this skill is its source parent '${source}'; skillc build leaves the section as written (an invoke there would not reproduce it token for token or would not pay: refactored_library.json's dropped_call_sites says which)`;
      ctx.report({
        offset: b.unit.start,
        ...(b.headingEnd > b.unit.start ? { endOffset: b.headingEnd } : {}),
        message: `${where} re-describes contract ${contract.id} (${contract.trigger}): ${lines}; ${advice}`,
        suggestion: b.invoke,
      });
    }
  },
};

/**
 * The source parent of the contract that this skill is, or null. A lint run does not know the
 * library root, so a skill is taken for source parent `p` when its folder path ends with `p`'s
 * segments, or when its SKILL.md is byte for byte the one the build read for `p` (a moved copy,
 * or a library that is a single skill, whose path is ".").
 */
function sourceParentOf(dist: LintDist, entry: DistContract, subject: LintSubject): string | null {
  const dir = subject.dir.split(path.sep).join('/');
  let hash: string | null | undefined;
  for (const p of entry.contract.source_parents) {
    if (p !== '.' && (dir === p || dir.endsWith(`/${p}`))) return p;
    // Invalid UTF-8 was decoded with replacements: the original bytes are not known here.
    hash ??= subject.lossy ? null : sha256(new TextEncoder().encode(subject.hasByteOrderMark ? `\ufeff${subject.text}` : subject.text));
    if (hash !== null && dist.skillHashes.get(p === '.' ? 'SKILL.md' : `${p}/SKILL.md`) === hash) return p;
  }
  return null;
}
