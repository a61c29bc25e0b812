import { describe, expect, it } from 'vitest';
import { anchorOf, canonicalTemplate, escapeTemplateText, instantiate, matchTemplate, templatePieces } from '../../src/rewrite/templates.js';

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

  it('reads doubled braces as literal braces, so code braces never become slots', () => {
    // `print(f"{name}: {value}")` with a slot `name` elsewhere: the doubled braces stay text.
    const t = { template: 'print(f"{{name}}: {{value}}") > {name}', slots: ['name'] };
    expect(templatePieces(t)).toEqual([{ kind: 'const', text: 'print(f"{name}: {value}") > ' }, { kind: 'slot', name: 'name' }]);
    expect(matchTemplate(t, 'print(f"{name}: {value}") > out.txt')).toEqual({ name: 'out.txt' });
    expect(instantiate(t, { name: 'log.txt' })).toBe('print(f"{name}: {value}") > log.txt');
    // JSON, shell ${VAR}, Jinja {{ x }} and a placeholder written by the author.
    const line = 'curl -H "Bearer {API_KEY}" -d \'{"q": 1}\' "${HOST}/{{ path }}"';
    const escaped = escapeTemplateText(line);
    expect(escaped).toBe('curl -H "Bearer {{API_KEY}}" -d \'{{"q": 1}}\' "${{HOST}}/{{{{ path }}}}"');
    expect(instantiate({ template: escaped, slots: ['API_KEY', 'path'] }, { API_KEY: 'x', path: 'y' })).toBe(line);
  });

  it('canonicalTemplate doubles the literal braces of a template written without escapes, and is idempotent', () => {
    const model = { template: 'jq \'{"a": .a}\' {file}', slots: ['file'] };
    const canonical = canonicalTemplate(model);
    expect(canonical).toBe('jq \'{{"a": .a}}\' {file}');
    expect(canonicalTemplate({ template: canonical, slots: ['file'] })).toBe(canonical);
    expect(matchTemplate({ template: canonical, slots: ['file'] }, 'jq \'{"a": .a}\' in.json')).toEqual({ file: 'in.json' });
  });
});
