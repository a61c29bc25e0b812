/**
 * Python walker of the risk scanner: walks a tree-sitter-python syntax tree and reports the
 * python.* sinks of rules/risk-sinks.json.
 *
 * Calls are recognised by their qualified name after import aliases are resolved
 * (`import subprocess as sp; sp.run` is `subprocess.run`, `from re import compile` is not the
 * builtin), so only real calls count — never a comment, a docstring or a string mentioning one.
 * Names not imported in the snippet are taken as written, since documentation snippets often
 * leave the imports out. Shell commands handed to os.system / subprocess — a string, or an argv
 * list like ["bash", "-c", "…"] — are unpacked and scanned as bash (WalkContext.scanNested).
 */
import type { Node } from 'web-tree-sitter';
import {
  type CodeSlice,
  type WalkContext,
  INTERPOLATION_PLACEHOLDER,
  SliceBuilder,
  appendAsShellWord,
  isSecretName,
  isSecretPath,
} from './scan.js';

export const PYTHON_SINK_IDS = [
  'python.shell-true',
  'python.os-system',
  'python.eval-exec',
  'python.rmtree',
  'python.file-delete',
  'python.network',
  'python.pickle-load',
  'python.secret-read',
] as const;
type PythonSink = (typeof PYTHON_SINK_IDS)[number];

/** Calls that run a command line through the shell. */
const SHELL_STRING_CALLS: ReadonlySet<string> = new Set([
  'os.system',
  'os.popen',
  'subprocess.getoutput',
  'subprocess.getstatusoutput',
  'commands.getoutput',
  'commands.getstatusoutput',
]);
/** Calls that run a command given as argv (or as a string, with shell=True). */
const SUBPROCESS_CALLS: ReadonlySet<string> = new Set([
  'subprocess.run',
  'subprocess.call',
  'subprocess.check_call',
  'subprocess.check_output',
  'subprocess.Popen',
  'asyncio.create_subprocess_shell',
]);
const EVAL_CALLS: ReadonlySet<string> = new Set([
  'eval',
  'exec',
  'compile',
  'builtins.eval',
  'builtins.exec',
  'builtins.compile',
]);
const DELETE_CALLS: ReadonlySet<string> = new Set(['os.remove', 'os.unlink', 'os.rmdir', 'os.removedirs']);
/** Methods that delete whatever path object they are called on (pathlib.Path.unlink / rmdir). */
const DELETE_METHODS: ReadonlySet<string> = new Set(['unlink', 'rmdir']);

const HTTP_VERBS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'request'];
const NETWORK_CALLS: ReadonlySet<string> = new Set([
  ...[...HTTP_VERBS, 'Session', 'session'].map((f) => `requests.${f}`),
  ...[...HTTP_VERBS, 'stream', 'Client', 'AsyncClient'].map((f) => `httpx.${f}`),
  ...['request', 'PoolManager', 'ProxyManager', 'HTTPConnectionPool', 'HTTPSConnectionPool', 'connection_from_url'].map(
    (f) => `urllib3.${f}`,
  ),
  'aiohttp.ClientSession',
  'aiohttp.request',
  'urllib.request.urlopen',
  'urllib.request.urlretrieve',
  'urllib.urlopen',
  'urllib2.urlopen',
  'socket.socket',
  'socket.create_connection',
  'http.client.HTTPConnection',
  'http.client.HTTPSConnection',
  'ftplib.FTP',
  'smtplib.SMTP',
  'smtplib.SMTP_SSL',
]);
const PICKLE_CALLS: ReadonlySet<string> = new Set([
  ...['pickle', 'cPickle', '_pickle', 'dill'].flatMap((m) => [`${m}.load`, `${m}.loads`, `${m}.Unpickler`]),
  'joblib.load',
  'pandas.read_pickle',
  'yaml.unsafe_load',
  'yaml.unsafe_load_all',
]);
const YAML_LOADS: ReadonlySet<string> = new Set(['yaml.load', 'yaml.load_all']);
const ENV_GETTERS: ReadonlySet<string> = new Set(['os.getenv', 'os.environ.get', 'os.environ.pop', 'os.environ.setdefault']);
const OPEN_CALLS: ReadonlySet<string> = new Set(['open', 'io.open', 'codecs.open', 'builtins.open']);
const COPY_CALLS: ReadonlySet<string> = new Set(['shutil.copy', 'shutil.copy2', 'shutil.copyfile', 'shutil.copytree']);
/** Methods that read the path object they are called on. */
const READ_METHODS: ReadonlySet<string> = new Set(['read_text', 'read_bytes', 'open']);
/** Calls that build a path out of their arguments, joined with "/". */
const PATH_BUILDERS: ReadonlySet<string> = new Set([
  'os.path.join',
  'os.path.expanduser',
  'os.path.expandvars',
  'os.path.abspath',
  'os.path.realpath',
  'os.path.normpath',
  'pathlib.Path',
  'pathlib.PurePath',
  'Path',
  'PurePath',
]);

/** Local name → what it was imported as (`sp` → `subprocess`, `run` → `subprocess.run`). */
function collectImports(root: Node): Map<string, string> {
  const aliases = new Map<string, string>();
  for (const statement of root.descendantsOfType(['import_statement', 'import_from_statement'])) {
    let prefix = '';
    if (statement.type === 'import_from_statement') {
      const module = statement.childForFieldName('module_name');
      if (!module || module.type !== 'dotted_name') continue; // relative imports name local code
      prefix = `${module.text}.`;
    }
    for (const name of statement.childrenForFieldName('name')) {
      if (name.type === 'aliased_import') {
        const original = name.childForFieldName('name');
        const alias = name.childForFieldName('alias');
        if (original && alias) aliases.set(alias.text, prefix + original.text);
      } else if (name.type === 'dotted_name' && prefix !== '') {
        aliases.set(name.text, prefix + name.text);
      }
    }
  }
  return aliases;
}

/** The arguments of a call, split into positional ones and keyword ones. */
interface CallArguments {
  readonly positional: readonly Node[];
  readonly keywords: ReadonlyMap<string, Node>;
}

function callArguments(call: Node): CallArguments {
  const positional: Node[] = [];
  const keywords = new Map<string, Node>();
  const list = call.childForFieldName('arguments');
  if (list?.type === 'argument_list') {
    for (const arg of list.namedChildren) {
      if (arg.type === 'comment') continue;
      if (arg.type === 'keyword_argument') {
        const name = arg.childForFieldName('name');
        const value = arg.childForFieldName('value');
        if (name && value) keywords.set(name.text, value);
      } else positional.push(arg);
    }
  }
  return { positional, keywords };
}

function isTruthyLiteral(node: Node): boolean {
  if (node.type === 'true') return true;
  if (node.type === 'integer') return Number(node.text.replace(/_/g, '')) !== 0;
  return false;
}

class PythonWalk {
  constructor(
    private readonly context: WalkContext,
    private readonly code: CodeSlice,
    private readonly depth: number,
    private readonly aliases: ReadonlyMap<string, string>,
  ) {}

  /** Names bound to a string literal so far (see recordStringVariable), with the string's text. */
  private readonly stringVariables = new Map<string, CodeSlice>();

  private report(sink: PythonSink, node: Node): void {
    this.context.report(sink, this.code, node.startIndex, node.endIndex);
  }

  /** `sp.run` → `subprocess.run`; null for anything that is not a dotted name. */
  private qualifiedName(node: Node): string | null {
    switch (node.type) {
      case 'identifier':
        return this.aliases.get(node.text) ?? node.text;
      case 'attribute': {
        const object = node.childForFieldName('object');
        const attribute = node.childForFieldName('attribute');
        const base = object ? this.qualifiedName(object) : null;
        return base !== null && attribute ? `${base}.${attribute.text}` : null;
      }
      case 'parenthesized_expression': {
        const inner = node.firstNamedChild;
        return inner ? this.qualifiedName(inner) : null;
      }
      default:
        return null;
    }
  }

  visit(node: Node): void {
    if (node.type === 'call') this.inspectCall(node);
    else if (node.type === 'subscript') this.inspectEnvironSubscript(node);
    else if (node.type === 'assignment') this.recordStringVariable(node);
  }

  /**
   * `cmd = "curl … | sh"` — remembers the string so a later `subprocess.run(cmd, shell=True)`
   * scans it. Flow-insensitive beyond document order: the latest assignment above a use wins,
   * whatever the scope; assigning anything but a string forgets the name.
   */
  private recordStringVariable(assignment: Node): void {
    const left = assignment.childForFieldName('left');
    const right = assignment.childForFieldName('right');
    if (left?.type !== 'identifier') return;
    const value = right ? this.stringSlice(right) : null;
    if (value) this.stringVariables.set(left.text, value);
    else this.stringVariables.delete(left.text);
  }

  private inspectCall(call: Node): void {
    const callee = call.childForFieldName('function');
    if (!callee) return;
    const name = this.qualifiedName(callee);
    const method = callee.type === 'attribute' ? (callee.childForFieldName('attribute')?.text ?? null) : null;
    const receiver = callee.type === 'attribute' ? callee.childForFieldName('object') : null;
    const { positional, keywords } = callArguments(call);
    const firstArg = (keyword: string): Node | undefined => positional[0] ?? keywords.get(keyword);

    const shell = keywords.get('shell');
    if (shell && isTruthyLiteral(shell)) this.report('python.shell-true', call);
    if (method !== null && DELETE_METHODS.has(method)) this.report('python.file-delete', call);
    if (method !== null && READ_METHODS.has(method) && receiver && this.isSecretPathExpression(receiver)) {
      this.report('python.secret-read', call);
    }
    if (name === null) return;

    if (SHELL_STRING_CALLS.has(name)) {
      this.report('python.os-system', call);
      this.scanCommand(firstArg('cmd'));
    } else if (SUBPROCESS_CALLS.has(name)) {
      this.scanCommand(firstArg('args'));
    } else if (name === 'asyncio.create_subprocess_exec') {
      this.scanArgv(positional, call);
    }
    if (EVAL_CALLS.has(name)) this.report('python.eval-exec', call);
    if (name === 'shutil.rmtree') this.report('python.rmtree', call);
    if (DELETE_CALLS.has(name)) this.report('python.file-delete', call);
    if (NETWORK_CALLS.has(name)) this.report('python.network', call);
    if (PICKLE_CALLS.has(name)) this.report('python.pickle-load', call);
    if (YAML_LOADS.has(name) && !this.hasSafeYamlLoader(positional[1] ?? keywords.get('Loader'))) {
      this.report('python.pickle-load', call);
    }
    if (name === 'torch.load') {
      const weightsOnly = keywords.get('weights_only');
      if (!weightsOnly || !isTruthyLiteral(weightsOnly)) this.report('python.pickle-load', call);
    }
    if (ENV_GETTERS.has(name)) {
      const key = firstArg('key');
      const keyValue = key ? this.stringValue(key) : null;
      if (keyValue !== null && isSecretName(keyValue)) this.report('python.secret-read', call);
    }
    if (OPEN_CALLS.has(name) || COPY_CALLS.has(name)) {
      const file = firstArg(OPEN_CALLS.has(name) ? 'file' : 'src');
      if (file && this.isSecretPathExpression(file)) this.report('python.secret-read', call);
    }
  }

  private hasSafeYamlLoader(loader: Node | undefined): boolean {
    return loader !== undefined && /(?:^|\.)(?:C?SafeLoader|BaseLoader)$/.test(loader.text);
  }

  /** `os.environ["GITHUB_TOKEN"]` read (assignments and `del` are writes, not reads). */
  private inspectEnvironSubscript(subscript: Node): void {
    const value = subscript.childForFieldName('value');
    if (!value || this.qualifiedName(value) !== 'os.environ') return;
    const parent = subscript.parent;
    if (parent?.type === 'delete_statement') return;
    if ((parent?.type === 'assignment' || parent?.type === 'augmented_assignment') && parent.childForFieldName('left')?.equals(subscript)) {
      return;
    }
    const key = subscript.childForFieldName('subscript');
    const keyValue = key ? this.stringValue(key) : null;
    if (keyValue !== null && isSecretName(keyValue)) this.report('python.secret-read', subscript);
  }

  // -------------------------------------------------------------------------------------------
  // Strings and paths.

  /** The code a string expression spells; interpolations become a shell-variable placeholder. */
  private stringSlice(node: Node): CodeSlice | null {
    const builder = new SliceBuilder();
    return this.appendString(builder, node) ? builder.build(this.code.origin(node.endIndex)) : null;
  }

  private appendString(builder: SliceBuilder, node: Node): boolean {
    switch (node.type) {
      case 'string': {
        const prefix = node.firstChild?.type === 'string_start' ? node.firstChild.text.toLowerCase() : '';
        for (const part of node.children) {
          if (part.type === 'string_content') {
            if (prefix.includes('r')) builder.copy(this.code, part.startIndex, part.endIndex);
            else builder.copyDecodingEscapes(this.code, part.startIndex, part.endIndex, 'python');
          } else if (part.type === 'interpolation') {
            builder.pushFor(INTERPOLATION_PLACEHOLDER, this.code, part.startIndex, part.endIndex);
          }
        }
        return true;
      }
      case 'concatenated_string':
        return node.namedChildren.every((part) => part.type !== 'string' || this.appendString(builder, part));
      case 'identifier': {
        const bound = this.stringVariables.get(node.text);
        if (bound) builder.append(bound);
        return bound !== undefined;
      }
      case 'parenthesized_expression': {
        const inner = node.firstNamedChild;
        return inner !== null && this.appendString(builder, inner);
      }
      case 'binary_operator': {
        // "rm -rf " + path, "rm -rf %s" % path
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        const operator = node.childForFieldName('operator')?.text;
        if (!left || !right) return false;
        if (operator === '+') {
          // At least one side must be a string; the other may be any value.
          const sides = [left, right].map((side) => {
            const part = new SliceBuilder();
            return this.appendString(part, side) ? part.build(this.code.origin(side.endIndex)) : null;
          });
          if (sides.every((side) => side === null)) return false;
          sides.forEach((side, i) => {
            const source = i === 0 ? left : right;
            if (side) builder.append(side);
            else builder.pushFor(INTERPOLATION_PLACEHOLDER, this.code, source.startIndex, source.endIndex);
          });
          return true;
        }
        if (operator === '%') return this.appendTemplate(builder, left, /%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[sdrifgeExXoc]/g);
        return false;
      }
      case 'call': {
        // "rm -rf {}".format(path)
        const callee = node.childForFieldName('function');
        const object = callee?.type === 'attribute' ? callee.childForFieldName('object') : null;
        if (callee?.childForFieldName('attribute')?.text !== 'format' || !object) return false;
        return this.appendTemplate(builder, object, /\{[^{}]*\}/g);
      }
      default:
        return false;
    }
  }

  /** Appends a format string with its fields (`%s`, `{}`) replaced by the placeholder. */
  private appendTemplate(builder: SliceBuilder, template: Node, field: RegExp): boolean {
    const inner = new SliceBuilder();
    if (!this.appendString(inner, template)) return false;
    const slice = inner.build(this.code.origin(template.endIndex));
    let last = 0;
    for (const match of slice.text.matchAll(field)) {
      builder.copy(slice, last, match.index);
      builder.pushFor(INTERPOLATION_PLACEHOLDER, slice, match.index, match.index + match[0].length);
      last = match.index + match[0].length;
    }
    builder.copy(slice, last, slice.text.length);
    return true;
  }

  /** A string literal's value, or null if it is not one (or interpolates). */
  private stringValue(node: Node): string | null {
    if (node.type !== 'string' && node.type !== 'concatenated_string') return null;
    if (node.descendantsOfType('interpolation').length > 0) return null;
    return this.stringSlice(node)?.text ?? null;
  }

  /**
   * The path an expression builds, as far as literals show it: `"~/.ssh/id_rsa"`,
   * `os.path.join(home, ".ssh", "id_rsa")` → `?/.ssh/id_rsa`, `Path.home() / ".env"` → `~/.env`.
   */
  private pathValue(node: Node, depth = 0): string | null {
    if (depth > 8) return null;
    switch (node.type) {
      case 'string':
      case 'concatenated_string':
        return this.stringSlice(node)?.text ?? null;
      case 'parenthesized_expression': {
        const inner = node.firstNamedChild;
        return inner ? this.pathValue(inner, depth + 1) : null;
      }
      case 'binary_operator': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        if (node.childForFieldName('operator')?.text !== '/' || !left || !right) return null;
        return `${this.pathValue(left, depth + 1) ?? '?'}/${this.pathValue(right, depth + 1) ?? '?'}`;
      }
      case 'call': {
        const callee = node.childForFieldName('function');
        if (!callee) return null;
        const name = this.qualifiedName(callee);
        const { positional } = callArguments(node);
        if (name !== null && /(?:^|\.)Path\.home$/.test(name)) return '~';
        if (name !== null && PATH_BUILDERS.has(name)) {
          return positional.map((arg) => this.pathValue(arg, depth + 1) ?? '?').join('/');
        }
        if (callee.type === 'attribute') {
          // Path(...).expanduser(), .resolve(), .joinpath("x")
          const method = callee.childForFieldName('attribute')?.text ?? '';
          const object = callee.childForFieldName('object');
          const base = object ? this.pathValue(object, depth + 1) : null;
          if (base === null) return null;
          if (method === 'joinpath') return [base, ...positional.map((arg) => this.pathValue(arg, depth + 1) ?? '?')].join('/');
          if (['expanduser', 'resolve', 'absolute'].includes(method)) return base;
        }
        return null;
      }
      default:
        return null;
    }
  }

  private isSecretPathExpression(node: Node): boolean {
    const value = this.pathValue(node);
    return value !== null && isSecretPath(value.replace(/\/{2,}/g, '/'));
  }

  // -------------------------------------------------------------------------------------------
  // Commands handed to a shell.

  /** Scans a subprocess/os.system command as bash: a command string, or an argv list or tuple. */
  private scanCommand(command: Node | undefined): void {
    if (!command) return;
    if (command.type === 'list' || command.type === 'tuple') {
      this.scanArgv(command.namedChildren, command);
      return;
    }
    const slice = this.stringSlice(command);
    if (slice) this.context.scanNested('bash', slice, this.depth + 1);
  }

  /** Scans argv elements as one bash command line, each element one shell word. */
  private scanArgv(elements: readonly Node[], owner: Node): void {
    const builder = new SliceBuilder();
    for (const element of elements) {
      if (element.type === 'comment') continue;
      if (builder.length > 0) builder.pushFor(' ', this.code, element.startIndex, element.startIndex);
      const word = this.stringSlice(element);
      if (word) appendAsShellWord(builder, word);
      else builder.pushFor(`"${INTERPOLATION_PLACEHOLDER}"`, this.code, element.startIndex, element.endIndex);
    }
    if (builder.length > 0) this.context.scanNested('bash', builder.build(this.code.origin(owner.endIndex)), this.depth + 1);
  }
}

/** Walks Python `code` (error-tolerant: broken code still yields its well-formed calls). */
export function walkPython(context: WalkContext, code: CodeSlice, depth: number): void {
  const tree = context.parse('python', code.text);
  if (!tree) return;
  try {
    const walk = new PythonWalk(context, code, depth, collectImports(tree.rootNode));
    // One query inside the wasm parser beats stepping a cursor over every token from JS.
    for (const node of tree.rootNode.descendantsOfType(['call', 'subscript', 'assignment'])) walk.visit(node);
  } finally {
    tree.delete();
  }
}
