/**
 * The body keys grouping reads (hashes of each section body, exact and with numbers and the skill's
 * name masked) are made in one scan by bodyKeysOf. This holds them to the split path that a
 * group's template is made from: bodyOf's separator and word arrays, joined by maskedKey.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Parent } from '../../src/ir/types.js';
import { bodyKeysOf, bodyOf, collapsedAtLeast, identityOf, maskedKey, MIN_BODY_CHARS, type BodyKey } from '../../src/passages/detect.js';
import { parentText } from '../../src/rewrite/splice.js';
import { seededRng } from '../../src/calibrate/random.js';
import { parentOf } from '../helpers/skill.js';

const WORD = /[A-Za-z0-9]+/g;
const hashed = (s: string) => createHash('sha256').update(s, 'utf16le').digest('base64');

/** The reference: every candidate body split by bodyOf, its masked key joined by maskedKey. */
function referenceKeys(p: Parent): BodyKey[] {
  const text = parentText(p);
  const identity = identityOf(p);
  return p.units.flatMap((u, unit) => {
    const b = bodyOf(p, u, text, identity);
    return b ? [{ unit, exact: hashed(b.text), masked: hashed(maskedKey(b)), short: !collapsedAtLeast(b.text, MIN_BODY_CHARS) }] : [];
  });
}

describe('bodyKeysOf', () => {
  it('gives the keys of the split-and-join reference on 1,200 generated skills', () => {
    const rng = seededRng(22);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rng() * xs.length)]!;
    const names = ['capsule-crm', 'ably', 'zyte-api', 'pdf.co', 'web3-tools', 'the-data-app', 'x', 'cutt-ly-helper', 'a1-b2', 'sevenletters', 'skill-21'];
    const separators = [' ', ' ', ' ', '_', '-', '.', '  ', ', ', '\n', '\r\n', ' — ', '/', '`', ' é ', '\u00a0', '--', '._', ' \ud83d\ude00 ', '\ud800', '\udc00 ', '\u0100\u00ff'];
    let withBodies = 0;
    for (let n = 0; n < 1200; n++) {
      const folder = pick(names);
      const fmName = rng() < 0.5 ? pick(names).replace(/-/g, rng() < 0.5 ? ' ' : '_').toUpperCase() : folder;
      const own = [...`${folder} ${fmName}`.matchAll(WORD)].map((m) => m[0]);
      const vocabulary = ['connect', 'toolkit', 'session', 'Call', 'the', 'and', 'API', '42', '7', '2024', 'naïve', 'crm', 'CRM', 'Data', 'skill', ...own, ...own.map((w) => w.toUpperCase())];
      const body = () => {
        let s = rng() < 0.2 ? pick(separators) : '';
        const count = 10 + Math.floor(rng() * 40);
        for (let k = 0; k < count; k++) s += pick(vocabulary) + (k + 1 < count ? pick(separators) : '');
        return s + (rng() < 0.3 ? '.' : '');
      };
      const sections = Array.from({ length: 1 + Math.floor(rng() * 4) }, (_, k) => `## Part ${k}${rng() < 0.2 ? '\n' : ''}\n\n${body()}${rng() < 0.3 ? '\n\n' : '\n'}`).join('\n');
      const p = parentOf(`lib/${folder}`, `---\nname: ${fmName}\ndescription: d\n---\n\n# ${fmName}\n\n${sections}`);
      const expected = referenceKeys(p);
      const got = bodyKeysOf(p);
      expect(got).toEqual(expected);
      if (expected.length > 0) withBodies++;
    }
    expect(withBodies).toBeGreaterThan(800);
  });

  it('masks numbers and a run of name words joined by one separator, and nothing else', () => {
    const body = 'Connect capsule_crm and Capsule CRM, or capsule  crm; version 21 of the crm tool ' + 'x'.repeat(40);
    const p = parentOf('lib/capsule-crm', `---\nname: capsule-crm\ndescription: d\n---\n\n## Setup\n\n${body}\n`);
    const [key] = bodyKeysOf(p);
    // Separators and words in turn, from a separator (empty before the first word).
    const M = '\u0000';
    const expected = ['', 'Connect', ' ', M, ' ', 'and', ' ', M, ', ', 'or', ' ', M, '  ', M, '; ', 'version', ' ', M, ' ', 'of', ' ', 'the', ' ', M, ' ', 'tool', ' ', 'x'.repeat(40), ''].join('\u0001');
    expect(key!.masked).toBe(hashed(expected));
    expect(key!.exact).toBe(hashed(body));
  });
});
