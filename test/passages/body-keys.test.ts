/**
 * The body keys grouping reads (hashes of each section body, exact and with numbers and the skill's
 * name masked) are made in one scan by bodyKeysOf. This holds them to the way they were made
 * before: the body split into separator and word arrays (bodyOf) and joined by maskedKey, copied
 * here as the reference.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Parent } from '../../src/ir/types.js';
import { bodyKeysOf, collapsedAtLeast, type BodyKey } from '../../src/passages/detect.js';
import { headingLength, parentText } from '../../src/rewrite/splice.js';
import { seededRng } from '../../src/calibrate/random.js';
import { parentOf } from '../helpers/skill.js';

const WORD = /[A-Za-z0-9]+/g;
const COMMON = new Set(['the', 'and', 'for', 'with', 'skill', 'skills', 'tool', 'tools', 'helper', 'helpers', 'automation', 'api', 'cli', 'app', 'pro', 'expert', 'guide', 'dev', 'test', 'data', 'file', 'files']);
const hashed = (s: string) => createHash('sha256').update(s, 'utf16le').digest('base64');

/** The reference: detect.ts's bodyOf and maskedKey as they were before the one-scan key. */
function referenceKeys(p: Parent): BodyKey[] {
  const strong = new Set<string>();
  const all = new Set<string>();
  const folder = p.path.slice(p.path.lastIndexOf('/') + 1);
  const name = typeof p.frontmatter.data?.['name'] === 'string' ? (p.frontmatter.data['name'] as string) : '';
  for (const source of [folder, name]) {
    for (const m of source.matchAll(WORD)) {
      const w = m[0].toLowerCase();
      all.add(w);
      if (w.length >= 3 && !COMMON.has(w)) strong.add(w);
    }
  }
  const text = parentText(p);
  const out: BodyKey[] = [];
  p.units.forEach((u, index) => {
    if (u.kind !== 'section') return;
    const h = headingLength(u);
    if (h === null || h === 0) return;
    let start = u.start + h;
    for (let m = /^[ \t]*(\r\n|\r|\n)/.exec(text.slice(start, start + 200)); m; m = /^[ \t]*(\r\n|\r|\n)/.exec(text.slice(start, start + 200))) start += m[0].length;
    let end = u.end;
    while (end > start && /\s/.test(text[end - 1]!)) end--;
    const body = text.slice(start, end);
    if (!collapsedAtLeast(body, 80)) return;
    const raw: string[] = [];
    let at = 0;
    for (const m of body.matchAll(WORD)) {
      raw.push(body.slice(at, m.index), m[0]);
      at = m.index + m[0].length;
    }
    raw.push(body.slice(at));
    const pieces: string[] = [];
    const masked: boolean[] = [];
    for (let i = 0; i < raw.length; i++) {
      if (i % 2 === 0) {
        pieces.push(raw[i]!);
        masked.push(false);
        continue;
      }
      const w = raw[i]!;
      if (/^[0-9]+$/.test(w)) {
        pieces.push(w);
        masked.push(true);
        continue;
      }
      const inName = (k: number) => k < raw.length && all.has(raw[k]!.toLowerCase());
      if (!inName(i)) {
        pieces.push(w);
        masked.push(false);
        continue;
      }
      let j = i;
      while (j + 2 < raw.length && /^[_\-. ]$/.test(raw[j + 1]!) && inName(j + 2)) j += 2;
      const run = raw.slice(i, j + 1);
      if (!run.some((x, k) => k % 2 === 0 && strong.has(x.toLowerCase()))) {
        pieces.push(w);
        masked.push(false);
        continue;
      }
      pieces.push(run.join(''));
      masked.push(true);
      i = j;
    }
    out.push({ unit: index, exact: hashed(body), masked: hashed(pieces.map((x, i) => (masked[i] ? '\u0000' : x)).join('\u0001')) });
  });
  return out;
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
