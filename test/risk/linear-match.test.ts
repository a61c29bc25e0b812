/**
 * The malicious-install shapes found in linear time (src/risk/linear-match.ts, savedDownloads): the
 * same matches as the global regex searches they replace, on commands whose parts are separated
 * as a shell reads them, and a megabyte line that made those searches run for minutes.
 */
import { describe, expect, it } from 'vitest';
import { NextMatch, prefixSpanSuffix } from '../../src/risk/linear-match.js';
import { savedDownloads, scanMalicious } from '../../src/risk/malicious.js';

/** The searches savedDownloads replaces, as they were. */
const SAVED = [
  /\b(?:curl|wget)\b[^\n]*?(https?:\/\/[^\s"'`)<>|]+)[^\n]*?(?:\s-o\s*|\s-O\s*|--output[= ]|--output-document[= ]|>\s*)["']?([^\s"'`;&|]+)/gi,
  /\b(?:curl|wget)\b[^\n]*?\s(?:-o\s*|-O\s*|--output[= ]|--output-document[= ]|>\s*)["']?([^\s"'`;&|]+)[^\n]*?(https?:\/\/[^\s"'`)<>|]+)/gi,
  /\b(?:iwr|Invoke-WebRequest|Start-BitsTransfer)\b[^\n]*?(https?:\/\/[^\s"'`)<>|]+)[^\n]*?-(?:OutFile|Destination)\s+["']?([^\s"'`;&|]+)/gi,
];
const reference = (text: string) =>
  SAVED.flatMap((re, k) => [...text.matchAll(re)].map((m) => ({ index: m.index, end: m.index + m[0].length, url: k === 1 ? m[2]! : m[1]!, file: k === 1 ? m[1]! : m[2]! })));

describe('savedDownloads', () => {
  it('finds what the global searches found, command by command', () => {
    let seed = 5;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const pick = <T>(xs: readonly T[]) => xs[random(xs.length)]!;
    const parts = {
      word: ['curl', 'wget', 'curl -fsSL', 'iwr', 'Invoke-WebRequest', 'Start-BitsTransfer', 'echo'],
      url: ['http://1.2.3.4/a.sh', 'https://bit.ly/x', 'https://github.com/a/b.sh', '192.0.2.10/i.sh'],
      out: ['-o a.sh', '-O a.sh', '--output a.sh', '--output=a.sh', '> a.sh', '-OutFile a.ps1', '-Destination a.exe', '-o', '-o\n a.sh', '-o "a.sh"'],
      other: ['', '-s', '-H "x: y"', '| sh', '; chmod +x a.sh', '&& ./a.sh', '\n', '(', ')'],
    };
    let compared = 0;
    for (let k = 0; k < 3000; k++) {
      const line = [pick(parts.other), pick(parts.word), pick(parts.other), ...(random(2) ? [pick(parts.out), pick(parts.url)] : [pick(parts.url), pick(parts.out)]), pick(parts.other), pick(parts.word), pick(parts.url), pick(parts.out)].join(' ');
      const want = reference(line);
      compared += want.length;
      expect(savedDownloads(line), line).toEqual(want);
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it('reads a megabyte line of downloads, options and pipes in linear time', () => {
    // Each of these took 10 to 16 s at 20 KB with the global searches (cubic), minutes at 1 MB.
    for (const unit of ['curl http://x y ', 'curl -o f y ', 'curl http://x | sh ', 'iwr http://x -y ', 'wget -O f http://x ']) {
      const line = unit.repeat(Math.ceil(1_000_000 / unit.length));
      expect(Array.isArray(scanMalicious(`# Install\n\n${line}\n`))).toBe(true);
    }
    const many = 'wget -O f http://1.2.3.4/f '.repeat(40_000);
    expect(savedDownloads(many).length).toBeGreaterThan(40_000);
    const some = 'wget -O f http://1.2.3.4/f '.repeat(300);
    expect(savedDownloads(some)).toEqual(reference(some));
  });
});

describe('prefixSpanSuffix', () => {
  it.each([
    ['curl a | b curl x | sh and more | bash\ncurl y | zsh', /\b(?:curl|wget)\b/gi, /\n/, /\|\s*(?:sh|bash|zsh)\b/i, /\b(?:curl|wget)\b[^\n]*\|\s*(?:sh|bash|zsh)\b/gi],
    ['iwr a | x iwr b | iex iwr c', /\b(?:iwr|irm)\b/gi, /[|\n]/, /\|\s*iex\b/i, /\b(?:iwr|irm)\b[^|\n]*\|\s*iex\b/gi],
    ['eval "$(curl a) eval $(curl b c) d)', /\beval\s+["']?\$\(\s*curl\b/gi, /[)\n]/, /\)/, /\beval\s+["']?\$\(\s*curl\b[^)\n]*\)/gi],
    ['x |\n sh curl a |\n sh', /\bcurl\b/gi, /\n/, /\|\s*sh\b/i, /\bcurl\b[^\n]*\|\s*sh\b/gi],
  ])('matches as one global search of the joined pattern: %s', (text, prefix, stop, suffix, whole) => {
    expect(prefixSpanSuffix(text, prefix, stop, suffix)).toEqual([...text.matchAll(whole)].map((m) => ({ index: m.index, end: m.index + m[0].length })));
  });

  it('answers a megabyte of prefixes without a suffix in linear time', () => {
    expect(prefixSpanSuffix('curl a | b '.repeat(100_000), /\bcurl\b/gi, /\n/, /\|\s*sh\b/i)).toEqual([]);
  });
});

describe('NextMatch', () => {
  it('gives the first match at or after each position asked', () => {
    const next = new NextMatch('a1 b22 c333', /\d+/);
    expect([0, 1, 2, 3, 5, 7, 11].map((p) => next.at(p)?.index ?? null)).toEqual([1, 1, 4, 4, 5, 8, null]);
  });
});
