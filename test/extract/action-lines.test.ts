import { describe, expect, it } from 'vitest';
import { actionLineTexts, actionLines } from '../../src/extract/action-lines.js';
import type { Unit } from '../../src/ir/types.js';

/** The code-block reading as it was before its prefilters ('$'/'>' before the prompt strip, '<' before the tag strip). */
function referenceCodeLines(unit: Unit): { text: string; line: number; shell: boolean }[] {
  const out: { text: string; line: number; shell: boolean }[] = [];
  const push = (text: string, line: number, shell: boolean) => {
    const t = text.replace(/\s+/g, ' ').trim();
    if (t.length < 2 || t.length > 240 || !/[A-Za-z0-9_]{2}/.test(t.replace(/<\/?[\w.-]+>/g, ''))) return;
    out.push({ text: t, line, shell });
  };
  for (const block of unit.codeBlocks) {
    const shell = ['bash', 'sh'].includes((block.lang ?? '').toLowerCase());
    let pending = '';
    let pendingLine = 0;
    let kept = 0;
    block.value.split('\n').forEach((raw, i) => {
      if (kept >= 40) return;
      let l = raw.replace(/^\s*(\$|>|PS>|#>)\s+/, '').trimEnd();
      if (/^\s*(#|\/\/|--)/.test(l) && !pending) return;
      if (!pending) pendingLine = block.line + 1 + i;
      if (l.endsWith('\\')) {
        pending += l.slice(0, -1) + ' ';
        return;
      }
      l = pending + l;
      pending = '';
      if (l.trim()) {
        push(l, pendingLine, shell);
        kept++;
      }
    });
    if (pending.trim()) push(pending, pendingLine, shell);
  }
  return out;
}

function unitWith(blocks: { lang: string; value: string }[]): Unit {
  return {
    id: 'u1', heading: null, depth: 0, start: 0, end: 0, line: 1, text: '',
    codeBlocks: blocks.map((b, k) => ({ lang: b.lang, value: b.value, line: 10 * k + 1, start: 0, end: 0 })),
    inlineCode: [], links: [], bullets: [],
  } as unknown as Unit;
}

describe('action lines of code blocks', () => {
  it('are the lines the unfiltered reading gives, on generated blocks', () => {
    const pieces = ['$ ', '> ', 'PS> ', '#> ', '# ', '// ', '-- ', 'npm install', ' pandas', '<b>', '</plugin>', '<x', '\\', '  ', '\t', 'x', 'echo $HOME', 'a > b', '\n', '\n', '});', '$x', '>>'];
    let seed = 11;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let n = 0; n < 3000; n++) {
      const blocks = Array.from({ length: 1 + Math.floor(next() * 2) }, () => ({
        lang: ['bash', 'python', ''][Math.floor(next() * 3)]!,
        value: Array.from({ length: Math.floor(next() * 60) }, () => pieces[Math.floor(next() * pieces.length)]).join(''),
      }));
      const unit = unitWith(blocks);
      const got = actionLineTexts(unit).map((l) => ({ text: l.text, line: l.line, shell: l.shell }));
      expect(got).toEqual(referenceCodeLines(unit));
      expect(actionLines(unit).map((l) => l.text)).toEqual(got.map((l) => l.text));
    }
  });
});
