/** The rewrite post-check: invokes must all be present, and no word may come from nowhere. */
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/calibrate/random.js';
import { postCheck, words } from '../../src/passes/rewrite.js';
import type { CallSite } from '../../src/ir/types.js';
import { contractOf } from '../helpers/skill.js';

const contract = contractOf('install-dependencies', ['pip install {package}']);
const callSite: CallSite = { unit: 'a#1', parent: 'a', file: 'a/SKILL.md', line: 3, contract: contract.id, detection: 'member', bindings: { package: 'pandas' }, actions: [], invoke: 'invoke(install-dependencies, {package="pandas"})', binder: 'deterministic' };
const invoked = [{ callSite, contract, verb: 'install' }];
const original = '# A\n\n## Setup\n\npip install pandas\n';

describe('rewrite post-check', () => {
  it('passes a skeleton made of the original text, the invoke and the marker', () => {
    expect(postCheck(original, '<!-- skillc: invoke(…) is notation for a contract or passage, not a command; 1 original section in SKILL.replaced.md -->\n# A\n\n## Setup\n\n`invoke(install-dependencies, {package="pandas"})`\n', invoked, 'SKILL.replaced.md')).toBeNull();
  });

  it('fails when an invoke is missing or its bindings changed', () => {
    expect(postCheck(original, '# A\n\n## Setup\n', invoked, 'SKILL.replaced.md')).toMatch(/missing/);
    expect(postCheck(original, '# A\n\n`invoke(install-dependencies, {package="numpy"})`\n', invoked, 'SKILL.replaced.md')).toMatch(/missing/);
  });

  it('fails on words that are neither in the parent nor in its contracts', () => {
    expect(postCheck(original, '# A\n\n## Setup\n\n`invoke(install-dependencies, {package="pandas"})` then reboot\n', invoked, 'SKILL.replaced.md')).toMatch(/reboot/);
  });

  it('fails on an invoke of a contract the parent does not call', () => {
    expect(postCheck(original, '`invoke(install-dependencies, {package="pandas"})` `invoke(pip, {})`\n', invoked, 'SKILL.replaced.md')).toMatch(/does not call/);
  });
});

describe('the post-check words', () => {
  it('are the matches of /[\\p{L}\\p{N}_]+/gu, on generated texts of every kind of character', () => {
    const pool = ['a', 'Z', '0', '9', '_', ' ', '-', '.', '\n', '\t', 'é', 'ß', 'Ω', '中', '٣', 'Ⅻ', '\u0301', '\u00a0', '😀', '𝐀', '𝟘', '\ud83d', '\ude00', '\ud800', '\udfff', '\uffff', '\u2028', 'İ', 'ǅ', 'ª', '²', '\u200d', '\ufeff'];
    const r = seededRng(42);
    for (let n = 0; n < 20_000; n++) {
      const text = Array.from({ length: Math.floor(r() * 24) }, () => pool[Math.floor(r() * pool.length)]).join('');
      expect(words(text), JSON.stringify(text)).toEqual(text.match(/[\p{L}\p{N}_]+/gu) ?? []);
    }
  });
});
