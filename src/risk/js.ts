/**
 * JavaScript/TypeScript walker of the risk scanner: parses with oxc-parser and reports the js.*
 * sinks of rules/risk-sinks.json.
 *
 * Calls are recognised by qualified name after imports and requires are resolved
 * (`import { exec as run } from 'node:child_process'` makes `run` child_process.exec;
 * `const { rmSync } = require('fs')` makes `rmSync` fs.rmSync), so comments, strings and
 * same-named methods of other objects do not count. Well-known globals (fetch, eval, process.env)
 * and module names written out (`fs.rmSync`) count without an import, since snippets often omit
 * them. Shell commands given to child_process are unpacked and scanned as bash. Unlike
 * tree-sitter, a JS parse with errors is not used: we retry with JSX on, and otherwise return
 * the error for the scanner to report as parseError.
 *
 * Why oxc-parser and not typescript-estree (SPEC §4 names the latter): both give the TS-ESTree
 * shape this walker reads, but typescript-estree loads the 9 MB TypeScript compiler, about 340 ms
 * of a cold `skillc lint` (a pre-commit hook, which must stay under 400 ms); oxc's native
 * parser loads and parses a first snippet in about 19 ms. bench/js-parser-parity.ts runs both through this walker over every
 * JS/TS block of the corpora and counts the differences (BENCHMARKS.md).
 */
import {
  parseSync,
  visitorKeys,
  type BindingProperty,
  type CallExpression,
  type ImportDeclaration,
  type MemberExpression,
  type NewExpression,
  type Node,
  type ObjectProperty,
  type OxcError,
  type Program,
  type VariableDeclarator,
} from 'oxc-parser';
import { LineIndex } from '../text/line-index.js';
import {
  type CodeSlice,
  type WalkContext,
  INTERPOLATION_PLACEHOLDER,
  SliceBuilder,
  appendAsShellWord,
  isSecretName,
} from './scan.js';

import { JS_SINK_IDS } from './js-sinks.js';
export { JS_SINK_IDS };
type JsSink = (typeof JS_SINK_IDS)[number];

/** child_process calls that always go through a shell. */
const SHELL_CALLS: ReadonlySet<string> = new Set(['child_process.exec', 'child_process.execSync', 'shelljs.exec']);
/** child_process calls that use a shell only with `shell: true`. */
const SPAWN_CALLS: ReadonlySet<string> = new Set([
  'child_process.spawn',
  'child_process.spawnSync',
  'child_process.execFile',
  'child_process.execFileSync',
]);
const EVAL_CALLS: ReadonlySet<string> = new Set([
  'eval',
  'window.eval',
  'globalThis.eval',
  'global.eval',
  'self.eval',
  'Function',
  'globalThis.Function',
  'vm.runInThisContext',
  'vm.runInNewContext',
  'vm.runInContext',
  'vm.compileFunction',
  'vm.Script',
]);
/** Timers that evaluate their first argument when it is a string. */
const TIMER_CALLS: ReadonlySet<string> = new Set(['setTimeout', 'setInterval', 'window.setTimeout', 'window.setInterval']);
const FS_DELETE_CALLS: ReadonlySet<string> = new Set([
  ...['rm', 'rmSync', 'rmdir', 'rmdirSync', 'unlink', 'unlinkSync', 'remove', 'removeSync', 'emptyDir', 'emptyDirSync'].map(
    (f) => `fs.${f}`,
  ),
  ...['rm', 'rmdir', 'unlink'].map((f) => `fs.promises.${f}`),
  'rimraf',
  'rimraf.sync',
  'rimraf.rimraf',
  'rimraf.rimrafSync',
]);
const HTTP_VERBS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'request'];
const NETWORK_CALLS: ReadonlySet<string> = new Set([
  'fetch',
  'globalThis.fetch',
  'window.fetch',
  'self.fetch',
  'node-fetch',
  'undici.fetch',
  'undici.request',
  'axios',
  ...HTTP_VERBS.map((verb) => `axios.${verb}`),
  'got',
  ...HTTP_VERBS.map((verb) => `got.${verb}`),
  'http.request',
  'http.get',
  'https.request',
  'https.get',
  'http2.connect',
  'net.connect',
  'net.createConnection',
  'tls.connect',
  'WebSocket',
  'globalThis.WebSocket',
  'window.WebSocket',
  'ws',
  'ws.WebSocket',
  'XMLHttpRequest',
  'EventSource',
]);
/** Objects whose properties are environment variables. */
const ENV_OBJECTS: ReadonlySet<string> = new Set(['process.env', 'import.meta.env', 'Bun.env']);

/** `node:fs` → `fs`, `fs/promises` → `fs.promises`; fs-extra and graceful-fs act as fs. */
function normalizeModule(specifier: string): string {
  const name = specifier.replace(/^node:/, '');
  if (name === 'fs-extra' || name === 'graceful-fs') return 'fs';
  return name === 'fs/promises' ? 'fs.promises' : name;
}

function stringLiteralValue(node: Node | null | undefined): string | null {
  if (!node) return null;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0]?.value.cooked ?? null;
  return null;
}

/** The name of a non-computed property, or of a computed one given as a string. */
function propertyName(member: MemberExpression): string | null {
  if (!member.computed) return member.property.type === 'Identifier' ? member.property.name : null;
  return stringLiteralValue(member.property);
}

function keyName(property: ObjectProperty | BindingProperty): string | null {
  if (!property.computed && property.key.type === 'Identifier') return property.key.name;
  return stringLiteralValue(property.key);
}

/** Whether a `{ shell: … }` options argument turns the shell on (true or a shell path). */
function enablesShell(args: readonly Node[]): boolean {
  return args.some(
    (arg) =>
      arg.type === 'ObjectExpression' &&
      arg.properties.some(
        (p) =>
          p.type === 'Property' &&
          keyName(p) === 'shell' &&
          p.value.type === 'Literal' &&
          (p.value.value === true || (typeof p.value.value === 'string' && p.value.value !== '')),
      ),
  );
}

class JsWalk {
  private readonly aliases = new Map<string, string>();
  /** Names declared with a string value so far, with the string's text (see inspectDeclarator). */
  private readonly stringVariables = new Map<string, CodeSlice>();

  constructor(
    private readonly context: WalkContext,
    private readonly code: CodeSlice,
    private readonly depth: number,
  ) {}

  private report(sink: JsSink, node: Node): void {
    this.context.report(sink, this.code, node.start, node.end);
  }

  /** `cp.exec` → `child_process.exec`, `require('fs').rmSync` → `fs.rmSync`; null if not a dotted name. */
  private qualifiedName(node: Node): string | null {
    switch (node.type) {
      case 'Identifier':
        return this.aliases.get(node.name) ?? node.name;
      case 'MemberExpression': {
        const base = this.qualifiedName(node.object);
        const property = propertyName(node);
        return base !== null && property !== null ? `${base}.${property}` : null;
      }
      case 'MetaProperty':
        return `${node.meta.name}.${node.property.name}`;
      case 'ChainExpression':
      case 'TSNonNullExpression':
      case 'TSAsExpression':
      case 'TSSatisfiesExpression':
        return this.qualifiedName(node.expression);
      case 'AwaitExpression':
        return this.qualifiedName(node.argument);
      case 'ImportExpression': {
        const source = stringLiteralValue(node.source);
        return source === null ? null : normalizeModule(source);
      }
      case 'CallExpression': {
        // require('x') names module x
        if (node.callee.type !== 'Identifier' || node.callee.name !== 'require') return null;
        const source = stringLiteralValue(node.arguments[0]);
        return source === null ? null : normalizeModule(source);
      }
      default:
        return null;
    }
  }

  /** Records what an import binds each local name to. */
  collectImport(declaration: ImportDeclaration): void {
    if (declaration.importKind === 'type') return;
    const module = normalizeModule(declaration.source.value);
    for (const specifier of declaration.specifiers) {
      if (specifier.type !== 'ImportSpecifier') {
        this.aliases.set(specifier.local.name, module);
        continue;
      }
      const imported =
        specifier.imported.type === 'Identifier' ? specifier.imported.name : String(specifier.imported.value);
      this.aliases.set(specifier.local.name, imported === 'default' ? module : `${module}.${imported}`);
    }
  }

  /**
   * `const cp = require('child_process')`, `const { exec } = cp`, `const run = promisify(exec)`,
   * `const env = process.env`: the local name stands for the dotted name. Destructuring a secret
   * out of process.env is itself a secret read.
   */
  inspectDeclarator(declarator: VariableDeclarator): void {
    if (!declarator.init) return;
    if (declarator.id.type === 'Identifier') {
      // `const cmd = 'curl … | sh'` — so a later execSync(cmd) scans it (document order, any scope).
      const value = this.stringSlice(declarator.init);
      if (value) this.stringVariables.set(declarator.id.name, value);
      else this.stringVariables.delete(declarator.id.name);
    }
    let init: Node = declarator.init;
    if (init.type === 'CallExpression') {
      const callee = this.qualifiedName(init.callee);
      const wrapped = init.arguments[0];
      if ((callee === 'util.promisify' || callee === 'promisify') && wrapped) init = wrapped;
    }
    const base = this.qualifiedName(init);
    if (base === null) return;
    if (declarator.id.type === 'Identifier') {
      this.aliases.set(declarator.id.name, base);
      return;
    }
    if (declarator.id.type !== 'ObjectPattern') return;
    for (const property of declarator.id.properties) {
      if (property.type !== 'Property') continue;
      const key = keyName(property);
      const local = property.value.type === 'AssignmentPattern' ? property.value.left : property.value;
      if (key === null) continue;
      if (local.type === 'Identifier') this.aliases.set(local.name, `${base}.${key}`);
      if (ENV_OBJECTS.has(base) && isSecretName(key)) this.report('js.secret-read', property);
    }
  }

  inspectCall(call: CallExpression | NewExpression): void {
    const name = this.qualifiedName(call.callee);
    if (name === null) return;
    const args = call.arguments;
    const first = args[0];
    if (SHELL_CALLS.has(name)) {
      this.report('js.child-process-exec', call);
      this.scanShellString(first);
    }
    if (SPAWN_CALLS.has(name)) {
      const shell = enablesShell(args);
      if (shell) this.report('js.child-process-exec', call);
      const argv = args[1];
      if (first && argv?.type === 'ArrayExpression') this.scanArgv([first, ...argv.elements], call);
      else if (shell) this.scanShellString(first);
    }
    if (EVAL_CALLS.has(name)) this.report('js.eval', call);
    if (TIMER_CALLS.has(name) && first && (first.type === 'Literal' || first.type === 'TemplateLiteral')) {
      this.report('js.eval', call);
    }
    if (FS_DELETE_CALLS.has(name)) this.report('js.fs-delete', call);
    if (NETWORK_CALLS.has(name)) this.report('js.network', call);
    if (name === 'Deno.env.get' && isSecretName(stringLiteralValue(first) ?? '')) this.report('js.secret-read', call);
  }

  /** `process.env.GITHUB_TOKEN` read (an assignment target or `delete` operand is not a read). */
  inspectMember(member: MemberExpression, parent: Node | undefined): void {
    const property = propertyName(member);
    if (property === null || !isSecretName(property)) return;
    const object = this.qualifiedName(member.object);
    if (object === null || !ENV_OBJECTS.has(object)) return;
    if (parent?.type === 'AssignmentExpression' && parent.left === member) return;
    if (parent?.type === 'UnaryExpression' && parent.operator === 'delete') return;
    this.report('js.secret-read', member);
  }

  // -------------------------------------------------------------------------------------------
  // Shell commands inside strings.

  /** The text a string expression spells (template holes and concatenated values → placeholder). */
  private stringSlice(node: Node): CodeSlice | null {
    const builder = new SliceBuilder();
    return this.appendString(builder, node) ? builder.build(this.code.origin(node.end)) : null;
  }

  private appendString(builder: SliceBuilder, node: Node): boolean {
    if (node.type === 'Identifier') {
      const bound = this.stringVariables.get(node.name);
      if (bound) builder.append(bound);
      return bound !== undefined;
    }
    if (node.type === 'Literal' && typeof node.value === 'string') {
      builder.copyDecodingEscapes(this.code, node.start + 1, node.end - 1, 'js');
      return true;
    }
    if (node.type === 'TemplateLiteral') {
      node.quasis.forEach((quasi, i) => {
        const start = quasi.start + 1; // after ` or }
        builder.copyDecodingEscapes(this.code, start, start + quasi.value.raw.length, 'js');
        const hole = node.expressions[i];
        if (hole) builder.pushFor(INTERPOLATION_PLACEHOLDER, this.code, hole.start - 2, hole.end + 1); // ${ … }
      });
      return true;
    }
    if (node.type === 'BinaryExpression' && node.operator === '+') {
      // At least one side must be a string; the other may be any value.
      const sides = [node.left, node.right].map((side) => ({ side, text: this.stringSlice(side) }));
      if (sides.every(({ text }) => text === null)) return false;
      for (const { side, text } of sides) {
        if (text) builder.append(text);
        else builder.pushFor(INTERPOLATION_PLACEHOLDER, this.code, side.start, side.end);
      }
      return true;
    }
    return false;
  }

  private scanShellString(command: Node | undefined): void {
    const slice = command ? this.stringSlice(command) : null;
    if (slice) this.context.scanNested('bash', slice, this.depth + 1);
  }

  /** `spawn('bash', ['-c', '…'])`: argv elements joined into one bash command line. */
  private scanArgv(elements: readonly (Node | null)[], owner: Node): void {
    const builder = new SliceBuilder();
    for (const element of elements) {
      if (!element) continue;
      if (builder.length > 0) builder.pushFor(' ', this.code, element.start, element.start);
      const word = this.stringSlice(element);
      if (word) appendAsShellWord(builder, word);
      else builder.pushFor(`"${INTERPOLATION_PLACEHOLDER}"`, this.code, element.start, element.end);
    }
    this.context.scanNested('bash', builder.build(this.code.origin(owner.end)), this.depth + 1);
  }
}

/** Turns `code` into a program, or says why it cannot (a message with line and column). */
export type JsProgramParser = (text: string, typescript: boolean) => Program | string;

/**
 * Errors about where a construct may stand, which oxc reports while parsing but TypeScript's
 * parser leaves to its type checker (so typescript-estree parsed such code). Snippets in skills
 * are full of them — `return <Empty />` at top level, `await` in a callback that lost its
 * `async` — and the tree oxc builds for them is whole, so they do not make the code unscannable.
 * Matched by message: oxc-parser is pinned to an exact version, and test/risk/scan.test.ts has a
 * case for each.
 */
const CONTEXT_ERRORS: readonly RegExp[] = [
  /^A 'return' statement can only be used within a function body\.$/,
  /^`await` is only allowed within async functions and at the top levels of modules$/,
  /^`for await` loops are only allowed within async functions and at the top levels of modules$/,
  /^A 'yield' expression is only allowed in a generator body\.$/,
  /^Unexpected new\.target expression$/,
];

/** Parses as plain JS/TS first, then with JSX; returns the first attempt's error if both fail. */
export const parseWithOxc: JsProgramParser = (text, typescript) => {
  let firstError: string | undefined;
  for (const jsx of [false, true]) {
    const lang = typescript ? (jsx ? 'tsx' : 'ts') : jsx ? 'jsx' : 'js';
    // preserveParens off: typescript-estree's shape, where `(a).b` is a plain MemberExpression.
    const result = parseSync(`snippet.${lang}`, text, { lang, astType: 'ts', sourceType: 'unambiguous', preserveParens: false });
    const error = result.errors.find((e) => e.severity === 'Error' && !CONTEXT_ERRORS.some((re) => re.test(e.message)));
    if (!error) return result.program;
    firstError ??= describeOxcError(text, error);
  }
  return firstError ?? 'unparsable code';
};

function describeOxcError(text: string, error: OxcError): string {
  const at = error.labels[0]?.start;
  if (at === undefined) return error.message;
  const { line, column } = new LineIndex(text).position(at);
  return `${error.message} (line ${line}, column ${column})`;
}

/** Every node under `root` in source order (visitor keys order), with its parent. */
function allNodes(root: Program): { node: Node; parent: Node | undefined }[] {
  const out: { node: Node; parent: Node | undefined }[] = [];
  const visit = (node: Node, parent: Node | undefined): void => {
    out.push({ node, parent });
    for (const key of visitorKeys[node.type] ?? []) {
      const child = (node as unknown as Record<string, unknown>)[key];
      if (Array.isArray(child)) {
        for (const c of child) if (isNode(c)) visit(c, node);
      } else if (isNode(child)) visit(child, node);
    }
  };
  visit(root, undefined);
  return out;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** Walks JS or TS `code`; returns a parse error message instead of findings if it does not parse. */
export function walkJs(context: WalkContext, code: CodeSlice, typescript: boolean, depth = 0, parse: JsProgramParser = parseWithOxc): string | undefined {
  const program = parse(code.text, typescript);
  if (typeof program === 'string') return program;
  const walk = new JsWalk(context, code, depth);
  const visited = allNodes(program);
  for (const { node } of visited) {
    if (node.type === 'ImportDeclaration') walk.collectImport(node); // imports are hoisted
  }
  for (const { node, parent } of visited) {
    switch (node.type) {
      case 'VariableDeclarator':
        walk.inspectDeclarator(node);
        break;
      case 'CallExpression':
      case 'NewExpression':
        walk.inspectCall(node);
        break;
      case 'MemberExpression':
        walk.inspectMember(node, parent);
        break;
    }
  }
  return undefined;
}
