/**
 * Long crafted lines against the malicious-install scan (src/risk/malicious.ts), which lint and
 * every build run on every skill: each shape repeated to 20 KB, 200 KB and 1 MB on one line, timed,
 * with the growth from the first size to the last (as the sizes for linear work, their square for
 * quadratic). Units ending in a newline make many short lines in one paragraph instead. A scan that grows
 * faster than the text is a way for one skill to stall a pre-commit hook or a CI build.
 *
 *   node build/bench/hostile-lines.js [--sizes 20000,200000,1000000]
 */
import { scanMalicious } from '../src/risk/malicious.js';

const args = process.argv.slice(2);
const sizes = (args.includes('--sizes') ? args[args.indexOf('--sizes') + 1]! : '20000,200000,1000000').split(',').map(Number);
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
  'openssl enc, no -d': 'openssl enc x ',
  'printf, no escapes': "printf 'x ",
  'bash -c $(, no )': 'bash -c $( x ',
  'decode_base64(, no )': 'decode_base64( x ',
  '7z x, no -p': '7z x a ',
  'unrar, no -p': 'unrar a ',
  'key, then curl without a form': 'cat ~/.ssh/id_rsa curl x ',
  'Add-MpPreference, no switch': 'Add-MpPreference x ',
  'copy command, no terminal': 'copy the command ',
  'decode_base64(x), then spaces': `decode_base64(x)${' '.repeat(2000)}`,
  'base64 -d | sudo, then -a -a …': `base64 -d | sudo${' -a'.repeat(40)} x `,
  'curl | sudo, then -a -a …': `curl http://x | sudo${' -a'.repeat(40)} x `,
  // Many short lines in one paragraph, not one long line.
  'lines: key bundled, never sent': 'tar czf /tmp/a ~/.ssh/id_rsa\n',
  'lines: decode_base64(, no )': 'decode_base64( x\n',
  'lines: bash -c $(, no )': 'bash -c $( x\n',
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
