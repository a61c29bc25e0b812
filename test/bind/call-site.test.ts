/**
 * Deterministic binding of one unit against one contract: each post-check rejecting the case it
 * exists for, and a clean call-site whose templates reproduce its action lines.
 */
import { describe, expect, it } from 'vitest';
import { bindUnit } from '../../src/bind/call-site.js';
import { contractOf, parentOf } from '../helpers/skill.js';

const move = contractOf('place-object', ['go to {target}', 'move {object} to {target}']);

function unitOf(body: string, heading = '## Place the object') {
  const p = parentOf('s', `---\nname: s\n---\n# S\n\n${heading}\n\n${body}\n## Next\n\nDone.\n`);
  return { parent: p, unit: p.units.find((u) => u.heading === heading.replace(/^#+ /, ''))! };
}

describe('bindUnit', () => {
  it('binds slots by aligning action lines and reproduces them', () => {
    const { parent, unit } = unitOf('1. go to desk 1\n2. move laptop 1 to desk 1\n');
    const r = bindUnit(move, parent, unit);
    expect(r).toEqual({
      ok: true,
      bindings: { target: 'desk 1', object: 'laptop 1' },
      actions: [
        { template: 'go to {target}', line: 8, text: 'go to desk 1' },
        { template: 'move {object} to {target}', line: 9, text: 'move laptop 1 to desk 1' },
      ],
    });
  });

  it('detect: no action line matches', () => {
    const { parent, unit } = unitOf('1. walk over to the desk\n');
    expect(bindUnit(move, parent, unit)).toMatchObject({ ok: false, stage: 'detect', matched: 0 });
  });

  it('detect: a unit entangled with its neighbours is not replaceable', () => {
    const { parent, unit } = unitOf('1. go to desk 1\n2. move laptop 1 to desk 1 as shown above\n');
    expect(bindUnit(move, parent, unit)).toMatchObject({ ok: false, stage: 'detect', reason: expect.stringContaining('as shown above') });
  });

  it('detect: a code block only partly covered by the templates', () => {
    const c = contractOf('install', ['pip install {package}']);
    const { parent, unit } = unitOf('```bash\npip install pandas\npip install numpy\npython run.py\n```\n', '## Install');
    expect(bindUnit(c, parent, unit)).toMatchObject({ ok: false, stage: 'detect', reason: expect.stringContaining('partly templated (2 of 3 lines)') });
  });

  it('detect: a unit whose action lines the contract mostly does not reproduce', () => {
    const { parent, unit } = unitOf('1. go to desk 1\n2. open drawer 1\n3. close drawer 1\n', '## Check the drawer');
    expect(bindUnit(move, parent, unit)).toMatchObject({ ok: false, stage: 'detect', reason: expect.stringContaining('reproduces only 1 of its 3 action lines') });
  });

  it('binding: a required input left unbound', () => {
    const { parent, unit } = unitOf('1. go to desk 1\n');
    expect(bindUnit(move, parent, unit)).toMatchObject({ ok: false, stage: 'binding', reason: 'required input object is unbound' });
  });

  it('round-trip: one invoke cannot carry two different values for one slot', () => {
    const { parent, unit } = unitOf('1. go to desk 1\n2. move laptop 1 to desk 1\n3. go to bed 2\n');
    const r = bindUnit(move, parent, unit);
    expect(r).toMatchObject({ ok: false, stage: 'round-trip' });
    expect(!r.ok && r.reason).toContain('"go to desk 1", not "go to bed 2"');
  });

  it('optional inputs may stay unbound', () => {
    const c = contractOf('search', ['SEARCH_TOOLS {query}'], [{ name: 'query', type: 'string', required: false, description: '' }]);
    const { parent, unit } = unitOf('```\nSEARCH_TOOLS\n```\n', '## Search');
    expect(bindUnit(c, parent, unit)).toMatchObject({ ok: true, bindings: {} });
  });

  it('detect: a heading nested in a block quote', () => {
    const p = parentOf('s', '# S\n\n> ## Place the object\n>\n> 1. go to desk 1\n');
    const unit = p.units.find((u) => u.heading === 'Place the object');
    if (unit) expect(bindUnit(move, p, unit)).toMatchObject({ ok: false, stage: 'detect' });
  });
});
