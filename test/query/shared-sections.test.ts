/**
 * A section an earlier hit already shows is a pointer to it, naming the heading the earlier hit
 * shows it under: the passage's own heading is a template of its members' (`"… (POM)"`), which an
 * agent cannot find in the answer.
 */
import { describe, expect, it } from 'vitest';
import { headingAsWritten, withoutRepeats, type SharedSection } from '../../src/query/shared-sections.js';

const first = '# Skill A\n\n## Page Object Model (POM)\n\nUse page objects.\n\n## Notes\n\nDone.\n';
const second = '# Skill B\n\n## Page objects (POM)\n\nUse page objects.\n\n## Notes\n\nOther.\n';
const at = (text: string): SharedSection => ({ key: 'pom\u0000[]', heading: '… (POM)', start: text.indexOf('Use page'), end: text.indexOf('\n\n## Notes') + 1 });

describe('shared sections in an answer', () => {
  it('names the heading as the stating hit writes it', () => {
    expect(headingAsWritten(first, at(first))).toBe('Page Object Model (POM)');
    const stated = new Map([[at(first).key, { rank: 1, heading: headingAsWritten(first, at(first)) }]]);
    const r = withoutRepeats(second, [at(second)], stated, 2);
    expect(r.replaced).toBe(1);
    expect(r.text).toBe('# Skill B\n\n## Page objects (POM)\n\n[skillc: the same text as under "Page Object Model (POM)" in hit 1 above]\n## Notes\n\nOther.\n');
  });

  it("falls back to the passage's heading when no heading line comes before the body", () => {
    const bare = 'Use page objects.\n';
    expect(headingAsWritten(bare, { key: 'k', heading: '… (POM)', start: 0, end: bare.length })).toBe('… (POM)');
    const prose = 'Intro line.\nUse page objects.\n';
    expect(headingAsWritten(prose, { key: 'k', heading: 'H', start: prose.indexOf('Use'), end: prose.length })).toBe('H');
    expect(headingAsWritten('## Closed ##\n\nbody\n', { key: 'k', heading: 'H', start: 14, end: 19 })).toBe('Closed');
  });
});
