import { describe, expect, it } from 'vitest';
import { buildTfidf, cosine } from '../../src/propose/tfidf.js';
import { singleLinkage } from '../../src/propose/cluster.js';
import { firstSentence, frameOf } from '../../src/propose/frame.js';
import { loadVerbLexicon } from '../../src/propose/lexicon.js';
import { parseSkill } from '../../src/passes/parse.js';
import type { Diagnostic } from '../../src/ir/diagnostics.js';

describe('TF-IDF', () => {
  it('gives unit-length vectors; identical texts have cosine 1, disjoint 0', () => {
    const m = buildTfidf(['install pandas with pip', 'install pandas with pip', 'draw a red circle', 'other words here']);
    expect(cosine(m.vectors[0]!, m.vectors[1]!)).toBeCloseTo(1);
    expect(cosine(m.vectors[0]!, m.vectors[2]!)).toBe(0);
    expect(cosine(m.vectors[2]!, m.vectors[2]!)).toBeCloseTo(1);
  });
});

describe('single linkage', () => {
  const texts = ['alpha beta gamma', 'alpha beta gamma delta', 'beta gamma delta epsilon', 'zeta eta theta', 'zeta eta theta'];
  const m = buildTfidf(texts);

  it('joins chains transitively (a~b, b~c ⇒ one cluster) and keeps unrelated units apart', () => {
    const r = singleLinkage(m.vectors, ['run', 'run', 'run', 'run', 'run'], { threshold: 0.3 });
    expect([...r.component]).toEqual([0, 0, 0, 3, 3]);
    expect(cosine(m.vectors[0]!, m.vectors[2]!)).toBeLessThan(0.3); // linked only through unit 1
  });

  it('never links across verb blocks or unblocked (verb-less) units', () => {
    const r = singleLinkage(m.vectors, ['run', 'run', 'install', null, 'install'], { threshold: 0.3 });
    expect([...r.component]).toEqual([0, 0, 2, 3, 4]);
  });

  it('respects the threshold', () => {
    const r = singleLinkage(m.vectors, ['run', 'run', 'run', 'run', 'run'], { threshold: 0.999 });
    expect([...r.component]).toEqual([0, 1, 2, 3, 3]);
  });
});

describe('frames', () => {
  const lexicon = loadVerbLexicon();
  const diags: Diagnostic[] = [];
  const parent = parseSkill({
    path: 'p',
    file: 'p/SKILL.md',
    content: new TextEncoder().encode('---\nname: p\ndescription: d\n---\n# P\n\n## Install dependencies\n\n```bash\npip install x\n```\n\n## When to use\n\nUse it for PDFs.\n\n## Tables in the report\n\n1. Extract the tables with `camelot`.\n'),
    files: [{ path: 'p/scripts/run.py', relPath: 'scripts/run.py', kind: 'script', bytes: 1, sha256: '0'.repeat(64), text: 'x' }],
  }, diags);

  it('takes the verb from the heading, with objects and code languages', () => {
    const f = frameOf(parent, parent.units[2]!, lexicon);
    expect(f).toMatchObject({ verb: 'install', codeLangs: ['bash'] });
    expect(f.objects).toEqual([]); // "dependencies" is itself a lexicon word (install class)
  });

  it('gives descriptive sections no verb, and falls back to the first step', () => {
    expect(frameOf(parent, parent.units[3]!, lexicon).verb).toBeNull();
    const notes = frameOf(parent, parent.units[4]!, lexicon);
    expect(notes.verb).toBe('extract');
    expect(notes.objects).toEqual(["tabl", "report"]);
  });
});

describe('firstSentence', () => {
  it('is the first piece of the text split at sentence ends, on generated texts', () => {
    const pieces = ['Run', ' ', 'the tests', '.', '!', '?', '\n', '\n\n', '  ', 'e.g.', 'v1.2', '\t', 'Done', '\u00a0', '...', '\r\n'];
    let seed = 7;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let n = 0; n < 5000; n++) {
      const text = Array.from({ length: Math.floor(next() * 14) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      const split = text.slice(text.indexOf('\n') + 1).trim().split(/(?<=[.!?])\s|\n\n/)[0] ?? '';
      expect(firstSentence(text)).toBe(split);
    }
  });
});
