import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { callExpressionOf, renderDeclarations } from '../../src/typed/declarations.js';
import { functionNames } from '../../src/typed/identifiers.js';
import { contract, field, installDependencies, resizeImage } from './sample.js';

/** Parsed standard-library files, shared across compiles (parsing them is most of the cost). */
const libCache = new Map<string, ts.SourceFile | undefined>();

/** Compiles declaration text with the real TypeScript standard library; returns the error messages. */
function compile(text: string): string[] {
  const file = '/virtual/index.d.ts';
  const options: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, lib: ['lib.es2022.d.ts'], types: [] };
  const host = ts.createCompilerHost(options, true);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, lang, ...rest) => {
    if (name === file) return ts.createSourceFile(name, text, lang, true);
    if (!libCache.has(name)) libCache.set(name, getSourceFile.call(host, name, lang, ...rest));
    return libCache.get(name);
  };
  host.fileExists = (name) => name === file || fileExists.call(host, name);
  host.readFile = (name) => (name === file ? text : readFile.call(host, name));
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('renderDeclarations', () => {
  it('declares one function per contract with typed, documented inputs', async () => {
    const text = await renderDeclarations([resizeImage, installDependencies]);
    expect(text).toContain('Do not edit');
    expect(text).toContain('export type FileRef = string;');
    expect(text).toContain('export type ImageRef = string;');
    expect(text).toContain('export declare function installDependencies(args: InstallDependenciesInput): void;');
    expect(text).toContain('export declare function resizeImage(args: ResizeImageInput): ResizeImageOutput | void;');
    expect(text).toContain('export interface InstallDependenciesInput {');
    expect(text).toContain('export interface ResizeImageOutput {');
    expect(text).not.toContain('InstallDependenciesOutput');
    expect(text).toContain('readonly package: string;');
    expect(text).toContain('readonly version?: string;');
    expect(text).toContain('readonly width: number;');
    expect(text).toContain('readonly input: ImageRef;');
    // Not an identifier: quoted.
    expect(text).toContain('readonly "keep-aspect"?: boolean;');
    expect(text).toContain('/** the package */');
    expect(text).toContain('@contract install-dependencies');
    expect(text).toContain('@contract resize-image');
    expect(text).toContain('@pre pip is available');
    expect(text).toContain('@post the package imports');
    expect(text).toContain('@sideEffect subprocess');
    expect(text).toContain('@sideEffect network');
    expect(text).toContain('@action pip install {package}');
    expect(text).toContain('Install the Python packages a script needs');
    expect(text).toContain('"install-dependencies": InstallDependenciesInput;');
    expect(text).toContain('"resize-image": ResizeImageInput;');
    // A description cannot close its comment early.
    expect(text).toContain('pinned version *\\/ maybe');
    // Sorted by id.
    expect(text.indexOf('function installDependencies')).toBeLessThan(text.indexOf('function resizeImage'));
    expect(text.endsWith('\n')).toBe(true);
    expect(text.endsWith('\n\n')).toBe(false);
  });

  it('is deterministic and independent of the input order', async () => {
    const a = await renderDeclarations([installDependencies, resizeImage]);
    expect(await renderDeclarations([installDependencies, resizeImage])).toBe(a);
    expect(await renderDeclarations([resizeImage, installDependencies])).toBe(a);
  });

  it('compiles cleanly against the standard library', async () => {
    const text = await renderDeclarations([installDependencies, resizeImage, contract('no-inputs', [])]);
    expect(compile(text)).toEqual([]);
  });

  it('compiles for awkward ids, field names and documentation', async () => {
    const ids = ['delete', 'import', 'await', 'package', 'undefined', 'string', 'type', 'of', 'async', 'declare', 'module', 'namespace', 'constructor', 'get', 'set', 'from', 'readonly', 'keyof', 'global', 'require', '3d-render', 'run-tests', 'run_tests', 'contracts', '---'];
    const odd = [field('class', 'string'), field('2nd', 'integer'), field('a b', 'json', false, ''), field('x"y', 'list'), field('$dollar', 'enum', true, 'multi\nline\n@tag */ end')];
    const contracts = ids.map((id) => contract(id, odd, { trigger: 'ends */ early', preconditions: ['line one\nline two'] }));
    const text = await renderDeclarations(contracts);
    expect(compile(text)).toEqual([]);
    expect(text).toContain('export declare function delete_(');
    expect(text).toContain('export declare function _3dRender(');
    expect(text).toContain('export declare function runTests_2(');
  });

  it('renders an empty contract set', async () => {
    const text = await renderDeclarations([]);
    expect(text).toContain('export interface Contracts {');
    expect(compile(text)).toEqual([]);
  });

  it('rejects two contracts with one id', async () => {
    await expect(renderDeclarations([installDependencies, installDependencies])).rejects.toThrow(/install-dependencies/);
  });
});

describe('callExpressionOf', () => {
  const names = functionNames([installDependencies.id, resizeImage.id]);

  it('writes one call with each binding as a typed literal', () => {
    expect(callExpressionOf(installDependencies, { package: 'python-docx' }, names)).toBe('C.installDependencies({ "package": "python-docx" })');
    expect(callExpressionOf(resizeImage, { input: 'a.png', width: '640', 'keep-aspect': 'True', out: 'b.png' }, names)).toBe(
      'C.resizeImage({ "input": "a.png", "width": 640, "keep-aspect": true, "out": "b.png" })',
    );
  });

  it('keeps text where a number belongs, and bindings the contract does not have', () => {
    expect(callExpressionOf(resizeImage, { width: 'wide', colour: '3' }, names)).toBe('C.resizeImage({ "width": "wide", "colour": "3" })');
    expect(callExpressionOf(resizeImage, {}, names)).toBe('C.resizeImage({})');
  });
});
