import { describe, expect, it } from 'vitest';
import { functionNameOf, functionNames, literalOf, propertyNameOf, tsTypeOf, typeStemOf } from '../../src/typed/identifiers.js';

describe('functionNameOf', () => {
  it('turns kebab-case ids into camelCase', () => {
    expect(functionNameOf('install-dependencies')).toBe('installDependencies');
    expect(functionNameOf('check-connection-2')).toBe('checkConnection2');
    expect(functionNameOf('convert')).toBe('convert');
    expect(functionNameOf('Parse-PDF--file_name.v2')).toBe('parsePdfFileNameV2');
  });

  it('prefixes a leading digit with an underscore', () => {
    expect(functionNameOf('3d-render')).toBe('_3dRender');
    expect(functionNameOf('2-step')).toBe('_2Step');
  });

  it('never returns a reserved word', () => {
    expect(functionNameOf('delete')).toBe('delete_');
    expect(functionNameOf('import')).toBe('import_');
    expect(functionNameOf('await')).toBe('await_');
    expect(functionNameOf('package')).toBe('package_');
    expect(functionNameOf('undefined')).toBe('undefined_');
    // Joined words are no longer the keyword.
    expect(functionNameOf('delete-file')).toBe('deleteFile');
  });

  it('gives an id without letters or digits a name all the same', () => {
    expect(functionNameOf('--')).toBe('contract');
    expect(functionNameOf('')).toBe('contract');
  });

  it('always returns a valid identifier', () => {
    for (const id of ['a', 'a-b', '9', '-x-', 'é-accent', 'x.y/z', 'for', 'new-new']) {
      expect(functionNameOf(id)).toMatch(/^[A-Za-z_$][A-Za-z0-9_$]*$/);
    }
  });
});

describe('functionNames', () => {
  it('maps every id and keeps distinct names as they are', () => {
    const m = functionNames(['b-c', 'a-b']);
    expect([...m]).toEqual([['a-b', 'aB'], ['b-c', 'bC']]);
  });

  it('suffixes colliding names in sorted id order, whatever the input order', () => {
    const ids = ['run-tests', 'run_tests', 'run--tests', 'run.tests'];
    const expected = new Map([['run--tests', 'runTests'], ['run-tests', 'runTests_2'], ['run.tests', 'runTests_3'], ['run_tests', 'runTests_4']]);
    expect(functionNames(ids)).toEqual(expected);
    expect(functionNames([...ids].reverse())).toEqual(expected);
    expect(new Set(functionNames(ids).values()).size).toBe(ids.length);
  });

  it('does not let a suffixed name take another id\'s name', () => {
    const m = functionNames(['a', 'A', 'a-2']);
    expect(m.get('A')).toBe('a');
    expect(m.get('a')).toBe('a_2');
    expect(m.get('a-2')).toBe('a2');
  });

  it('ignores repeated ids', () => {
    expect([...functionNames(['x', 'x'])]).toEqual([['x', 'x']]);
  });
});

describe('types and literals', () => {
  it('maps field types to TypeScript types', () => {
    expect(tsTypeOf('integer')).toBe('number');
    expect(tsTypeOf('number')).toBe('number');
    expect(tsTypeOf('boolean')).toBe('boolean');
    expect(tsTypeOf('string')).toBe('string');
    expect(tsTypeOf('file')).toBe('FileRef');
    expect(tsTypeOf('document')).toBe('DocumentRef');
    expect(tsTypeOf('image')).toBe('ImageRef');
    expect(tsTypeOf('table')).toBe('TableRef');
    expect(tsTypeOf('json')).toBe('JsonText');
    expect(tsTypeOf('list')).toBe('ListText');
    expect(tsTypeOf('enum')).toBe('EnumValue');
    expect(tsTypeOf('object')).toBe('ObjectText');
  });

  it('writes numbers as numeric literals only when they are plain decimals', () => {
    expect(literalOf('integer', '42')).toBe('42');
    expect(literalOf('number', '-3.5')).toBe('-3.5');
    expect(literalOf('integer', '007')).toBe('7');
    expect(literalOf('number', '-00.5')).toBe('-0.5');
    expect(literalOf('integer', 'latest')).toBe('"latest"');
    expect(literalOf('integer', '1e3')).toBe('"1e3"');
    expect(literalOf('integer', '')).toBe('""');
  });

  it('writes booleans as literals only for true/false', () => {
    expect(literalOf('boolean', 'TRUE')).toBe('true');
    expect(literalOf('boolean', 'false')).toBe('false');
    expect(literalOf('boolean', 'yes')).toBe('"yes"');
  });

  it('writes everything else as a JSON string literal', () => {
    expect(literalOf('string', 'say "hi"\n')).toBe('"say \\"hi\\"\\n"');
    expect(literalOf('file', '42')).toBe('"42"');
  });

  it('quotes property names that are not identifiers', () => {
    expect(propertyNameOf('package')).toBe('package');
    expect(propertyNameOf('keep-aspect')).toBe('"keep-aspect"');
    expect(propertyNameOf('2x')).toBe('"2x"');
    expect(typeStemOf('installDependencies')).toBe('InstallDependencies');
    expect(typeStemOf('_3dRender')).toBe('_3dRender');
  });
});
