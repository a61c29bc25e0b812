/**
 * JavaScript/TypeScript walker of the risk scanner: parses with typescript-estree and reports
 * the js.* sinks of rules/risk-sinks.json.
 *
 * Calls are recognised by qualified name after imports and requires are resolved
 * (`import { exec as run } from 'node:child_process'` makes `run` child_process.exec;
 * `const { rmSync } = require('fs')` makes `rmSync` fs.rmSync), so comments, strings and
 * same-named methods of other objects do not count. Well-known globals (fetch, eval, process.env)
 * and module names written out (`fs.rmSync`) count without an import, since snippets often omit
 * them. Shell commands given to child_process are unpacked and scanned as bash. Unlike
 * tree-sitter, estree stops at the first syntax error: we retry with JSX on, and otherwise return
 * the error for the scanner to report as parseError.
 */
import { AST_NODE_TYPES, TSError, parse, simpleTraverse, type TSESTree } from '@typescript-eslint/typescript-estree';
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

function stringLiteralValue(node: TSESTree.Node | null | undefined): string | null {
  if (!node) return null;
  if (node.type === AST_NODE_TYPES.Literal && typeof node.value === 'string') return node.value;
  if (node.type === AST_NODE_TYPES.TemplateLiteral && node.expressions.length === 0) return node.quasis[0]?.value.cooked ?? null;
  return null;
}

/** The name of a non-computed property, or of a computed one given as a string. */
function propertyName(member: TSESTree.MemberExpression): string | null {
  if (!member.computed) return member.property.type === AST_NODE_TYPES.Identifier ? member.property.name : null;
  return stringLiteralValue(member.property);
}

function keyName(property: TSESTree.Property): string | null {
  if (!property.computed && property.key.type === AST_NODE_TYPES.Identifier) return property.key.name;
  return stringLiteralValue(property.key);
}

/** Whether a `{ shell: … }` options argument turns the shell on (true or a shell path). */
function enablesShell(args: readonly TSESTree.Node[]): boolean {
  return args.some(
    (arg) =>
      arg.type === AST_NODE_TYPES.ObjectExpression &&
      arg.properties.some(
        (p) =>
          p.type === AST_NODE_TYPES.Property &&
          keyName(p) === 'shell' &&
          p.value.type === AST_NODE_TYPES.Literal &&
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

  private report(sink: JsSink, node: TSESTree.Node): void {
    this.context.report(sink, this.code, node.range[0], node.range[1]);
  }

  /** `cp.exec` → `child_process.exec`, `require('fs').rmSync` → `fs.rmSync`; null if not a dotted name. */
  private qualifiedName(node: TSESTree.Node): string | null {
    switch (node.type) {
      case AST_NODE_TYPES.Identifier:
        return this.aliases.get(node.name) ?? node.name;
      case AST_NODE_TYPES.MemberExpression: {
        const base = this.qualifiedName(node.object);
        const property = propertyName(node);
        return base !== null && property !== null ? `${base}.${property}` : null;
      }
      case AST_NODE_TYPES.MetaProperty:
        return `${node.meta.name}.${node.property.name}`;
      case AST_NODE_TYPES.ChainExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
        return this.qualifiedName(node.expression);
      case AST_NODE_TYPES.AwaitExpression:
        return this.qualifiedName(node.argument);
      case AST_NODE_TYPES.ImportExpression: {
        const source = stringLiteralValue(node.source);
        return source === null ? null : normalizeModule(source);
      }
      case AST_NODE_TYPES.CallExpression: {
        // require('x') names module x
        if (node.callee.type !== AST_NODE_TYPES.Identifier || node.callee.name !== 'require') return null;
        const source = stringLiteralValue(node.arguments[0]);
        return source === null ? null : normalizeModule(source);
      }
      default:
        return null;
    }
  }

  /** Records what an import binds each local name to. */
  collectImport(declaration: TSESTree.ImportDeclaration): void {
    if (declaration.importKind === 'type') return;
    const module = normalizeModule(declaration.source.value);
    for (const specifier of declaration.specifiers) {
      if (specifier.type !== AST_NODE_TYPES.ImportSpecifier) {
        this.aliases.set(specifier.local.name, module);
        continue;
      }
      const imported =
        specifier.imported.type === AST_NODE_TYPES.Identifier ? specifier.imported.name : String(specifier.imported.value);
      this.aliases.set(specifier.local.name, imported === 'default' ? module : `${module}.${imported}`);
    }
  }

  /**
   * `const cp = require('child_process')`, `const { exec } = cp`, `const run = promisify(exec)`,
   * `const env = process.env`: the local name stands for the dotted name. Destructuring a secret
   * out of process.env is itself a secret read.
   */
  inspectDeclarator(declarator: TSESTree.VariableDeclarator): void {
    if (!declarator.init) return;
    if (declarator.id.type === AST_NODE_TYPES.Identifier) {
      // `const cmd = 'curl … | sh'` — so a later execSync(cmd) scans it (document order, any scope).
      const value = this.stringSlice(declarator.init);
      if (value) this.stringVariables.set(declarator.id.name, value);
      else this.stringVariables.delete(declarator.id.name);
    }
    let init: TSESTree.Node = declarator.init;
    if (init.type === AST_NODE_TYPES.CallExpression) {
      const callee = this.qualifiedName(init.callee);
      const wrapped = init.arguments[0];
      if ((callee === 'util.promisify' || callee === 'promisify') && wrapped) init = wrapped;
    }
    const base = this.qualifiedName(init);
    if (base === null) return;
    if (declarator.id.type === AST_NODE_TYPES.Identifier) {
      this.aliases.set(declarator.id.name, base);
      return;
    }
    if (declarator.id.type !== AST_NODE_TYPES.ObjectPattern) return;
    for (const property of declarator.id.properties) {
      if (property.type !== AST_NODE_TYPES.Property) continue;
      const key = keyName(property);
      const local = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
      if (key === null) continue;
      if (local.type === AST_NODE_TYPES.Identifier) this.aliases.set(local.name, `${base}.${key}`);
      if (ENV_OBJECTS.has(base) && isSecretName(key)) this.report('js.secret-read', property);
    }
  }

  inspectCall(call: TSESTree.CallExpression | TSESTree.NewExpression): void {
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
      if (first && argv?.type === AST_NODE_TYPES.ArrayExpression) this.scanArgv([first, ...argv.elements], call);
      else if (shell) this.scanShellString(first);
    }
    if (EVAL_CALLS.has(name)) this.report('js.eval', call);
    if (TIMER_CALLS.has(name) && first && (first.type === AST_NODE_TYPES.Literal || first.type === AST_NODE_TYPES.TemplateLiteral)) {
      this.report('js.eval', call);
    }
    if (FS_DELETE_CALLS.has(name)) this.report('js.fs-delete', call);
    if (NETWORK_CALLS.has(name)) this.report('js.network', call);
    if (name === 'Deno.env.get' && isSecretName(stringLiteralValue(first) ?? '')) this.report('js.secret-read', call);
  }

  /** `process.env.GITHUB_TOKEN` read (an assignment target or `delete` operand is not a read). */
  inspectMember(member: TSESTree.MemberExpression, parent: TSESTree.Node | undefined): void {
    const property = propertyName(member);
    if (property === null || !isSecretName(property)) return;
    const object = this.qualifiedName(member.object);
    if (object === null || !ENV_OBJECTS.has(object)) return;
    if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.left === member) return;
    if (parent?.type === AST_NODE_TYPES.UnaryExpression && parent.operator === 'delete') return;
    this.report('js.secret-read', member);
  }

  // -------------------------------------------------------------------------------------------
  // Shell commands inside strings.

  /** The text a string expression spells (template holes and concatenated values → placeholder). */
  private stringSlice(node: TSESTree.Node): CodeSlice | null {
    const builder = new SliceBuilder();
    return this.appendString(builder, node) ? builder.build(this.code.origin(node.range[1])) : null;
  }

  private appendString(builder: SliceBuilder, node: TSESTree.Node): boolean {
    if (node.type === AST_NODE_TYPES.Identifier) {
      const bound = this.stringVariables.get(node.name);
      if (bound) builder.append(bound);
      return bound !== undefined;
    }
    if (node.type === AST_NODE_TYPES.Literal && typeof node.value === 'string') {
      builder.copyDecodingEscapes(this.code, node.range[0] + 1, node.range[1] - 1, 'js');
      return true;
    }
    if (node.type === AST_NODE_TYPES.TemplateLiteral) {
      node.quasis.forEach((quasi, i) => {
        const start = quasi.range[0] + 1; // after ` or }
        builder.copyDecodingEscapes(this.code, start, start + quasi.value.raw.length, 'js');
        const hole = node.expressions[i];
        if (hole) builder.pushFor(INTERPOLATION_PLACEHOLDER, this.code, hole.range[0] - 2, hole.range[1] + 1); // ${ … }
      });
      return true;
    }
    if (node.type === AST_NODE_TYPES.BinaryExpression && node.operator === '+') {
      // At least one side must be a string; the other may be any value.
      const sides = [node.left, node.right].map((side) => ({ side, text: this.stringSlice(side) }));
      if (sides.every(({ text }) => text === null)) return false;
      for (const { side, text } of sides) {
        if (text) builder.append(text);
        else builder.pushFor(INTERPOLATION_PLACEHOLDER, this.code, side.range[0], side.range[1]);
      }
      return true;
    }
    return false;
  }

  private scanShellString(command: TSESTree.Node | undefined): void {
    const slice = command ? this.stringSlice(command) : null;
    if (slice) this.context.scanNested('bash', slice, this.depth + 1);
  }

  /** `spawn('bash', ['-c', '…'])`: argv elements joined into one bash command line. */
  private scanArgv(elements: readonly (TSESTree.Node | null)[], owner: TSESTree.Node): void {
    const builder = new SliceBuilder();
    for (const element of elements) {
      if (!element) continue;
      if (builder.length > 0) builder.pushFor(' ', this.code, element.range[0], element.range[0]);
      const word = this.stringSlice(element);
      if (word) appendAsShellWord(builder, word);
      else builder.pushFor(`"${INTERPOLATION_PLACEHOLDER}"`, this.code, element.range[0], element.range[1]);
    }
    this.context.scanNested('bash', builder.build(this.code.origin(owner.range[1])), this.depth + 1);
  }
}

function describeParseError(error: unknown): string {
  if (error instanceof TSError) {
    return `${error.message} (line ${error.location.start.line}, column ${error.location.start.column + 1})`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Parses as plain JS/TS first, then with JSX; returns the first attempt's error if both fail. */
function parseProgram(text: string, typescript: boolean): TSESTree.Program | string {
  let firstError: string | undefined;
  for (const jsx of [false, true]) {
    try {
      return parse(text, {
        range: true,
        loc: false,
        jsx,
        filePath: `snippet.${typescript ? 'ts' : 'js'}${jsx ? 'x' : ''}`,
        comment: false,
        tokens: false,
        loggerFn: false,
        suppressDeprecatedPropertyWarnings: true,
      });
    } catch (error) {
      firstError ??= describeParseError(error);
    }
  }
  return firstError ?? 'unparsable code';
}

/** Walks JS or TS `code`; returns a parse error message instead of findings if it does not parse. */
export function walkJs(context: WalkContext, code: CodeSlice, typescript: boolean, depth = 0): string | undefined {
  const program = parseProgram(code.text, typescript);
  if (typeof program === 'string') return program;
  const walk = new JsWalk(context, code, depth);
  const visited: { node: TSESTree.Node; parent: TSESTree.Node | undefined }[] = [];
  simpleTraverse(program, { enter: (node, parent) => visited.push({ node, parent }) });
  for (const { node } of visited) {
    if (node.type === AST_NODE_TYPES.ImportDeclaration) walk.collectImport(node); // imports are hoisted
  }
  for (const { node, parent } of visited) {
    switch (node.type) {
      case AST_NODE_TYPES.VariableDeclarator:
        walk.inspectDeclarator(node);
        break;
      case AST_NODE_TYPES.CallExpression:
      case AST_NODE_TYPES.NewExpression:
        walk.inspectCall(node);
        break;
      case AST_NODE_TYPES.MemberExpression:
        walk.inspectMember(node, parent);
        break;
    }
  }
  return undefined;
}
