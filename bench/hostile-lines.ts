/**
 * Long crafted lines against the malicious-install scan (src/risk/malicious.ts), which lint and
 * every build run on every skill: each shape repeated to 20 KB and to 200 KB on one line, timed,
 * with the growth between the two (10 for linear work, 100 for quadratic). A scan that grows
 * faster than the text is a way for one skill to stall a pre-commit hook or a CI build.
 *
 *   node build/bench/hostile-lines.js [--sizes 20000,200000]
 */
import { scanMalicious } from '../src/risk/malicious.js';

const args = process.argv.slice(2);
const sizes = (args.includes('--sizes') ? args[args.indexOf('--sizes') + 1]! : '20000,200000').split(',').map(Number);
const UNITS: Readonly<Record<string, string>> = {
  'curl url, no output': 'curl http://x y ',
  'curl output, no url': 'curl -o f y ',
  'curl url, piped to sh': 'curl http://x | sh ',
  'curl, piped to no shell': 'curl a | b ',
  'wget -O file url': 'wget -O f http://x ',
  'iwr url -flag': 'iwr http://x -y ',
  'iex … DownloadString': 'iex x DownloadString ',
  'iex, no base64 call': 'iex x y ',
  'powershell, no -enc': 'powershell x ',
  'Set-MpPreference, no switch': 'Set-MpPreference x ',
  'base64 -d, no pipe': 'base64 -d x ',
  'curl, no form': 'curl x ',
  'base64 literal': 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODkw ',
  'hyphenated run': 'a-',
};
console.log(`| line of | ${sizes.map((n) => `${n / 1000} KB`).join(' | ')} | growth |`);
console.log(`|---|${sizes.map(() => '---:|').join('')}---:|`);
for (const [name, unit] of Object.entries(UNITS)) {
  const ms = sizes.map((n) => {
    const line = unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
    const t = performance.now();
    scanMalicious(`# Install\n\n${line}\n`);
    return performance.now() - t;
  });
  const growth = ms.length > 1 ? (ms[ms.length - 1]! / Math.max(1, ms[0]!)).toFixed(0) : '';
  console.log(`| ${name} | ${ms.map((x) => `${x.toFixed(0)} ms`).join(' | ')} | ${growth}x |`);
}
