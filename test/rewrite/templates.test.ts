import { describe, expect, it } from 'vitest';
import { anchorOf, instantiate, matchTemplate, templatePieces } from '../../src/rewrite/templates.js';

const take = { template: 'take {object} from {source}', slots: ['object', 'source'] };

describe('action templates', () => {
  it('splits only declared slots; code braces stay constant', () => {
    const t = { template: 'echo ${HOME} {file}', slots: ['file'] };
    expect(templatePieces(t)).toEqual([{ kind: 'const', text: 'echo ${HOME} ' }, { kind: 'slot', name: 'file' }]);
    expect(matchTemplate(t, 'echo ${HOME} a.txt')).toEqual({ file: 'a.txt' });
    expect(matchTemplate(t, 'echo $HOME a.txt')).toBeNull();
  });

  it('aligns multi-word slot values', () => {
    expect(matchTemplate(take, 'take laptop 1 from bed 2')).toEqual({ object: 'laptop 1', source: 'bed 2' });
    expect(matchTemplate(take, 'take   mug 1   from  countertop 1 ')).toEqual({ object: 'mug 1', source: 'countertop 1' });
  });

  it('rejects lines of another shape and empty required slots', () => {
    expect(matchTemplate(take, 'put laptop 1 in/on desk 1')).toBeNull();
    expect(matchTemplate(take, 'take from bed 2')).toBeNull();
    expect(matchTemplate({ template: 'RUN {target}', slots: ['target'] }, 'RUN', new Set())).toEqual({ target: '' });
  });

  it('instantiates; an absent optional slot is empty', () => {
    expect(instantiate(take, { object: 'mug 1', source: 'table 2' })).toBe('take mug 1 from table 2');
    expect(instantiate({ template: 'pip install {package} {extra}', slots: ['package', 'extra'] }, { package: 'x' })).toBe('pip install x');
  });

  it('picks the longest constant word as the prefilter anchor', () => {
    expect(anchorOf({ template: 'pip install {package}', slots: ['package'] })).toBe('install');
    expect(anchorOf({ template: '{a} {b}', slots: ['a', 'b'] })).toBe('');
  });
});
