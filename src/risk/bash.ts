/**
 * Bash walker of the risk scanner: walks a tree-sitter-bash syntax tree and reports the bash.*
 * sinks of rules/risk-sinks.json.
 *
 * It reasons about commands as the shell runs them — a command's name and its arguments after
 * quote removal, pipelines, redirects — so text in comments, in quoted strings, or in a heredoc
 * fed to `cat` never counts. It looks through wrappers (sudo, env, timeout, xargs, find -exec …)
 * to the command they run, and unpacks code the shell will run from strings: `bash -c '…'` and
 * `python -c '…'` arguments and heredocs fed to an interpreter are handed back to the scanner
 * (WalkContext.scanNested) with positions mapped into the scanned code.
 */
import type { Node } from 'web-tree-sitter';
import { type CodeSlice, type WalkContext, SliceBuilder, isSecretName, isSecretPath } from './scan.js';

export const BASH_SINK_IDS = [
  'bash.pipe-to-shell',
  'bash.rm-recursive',
  'bash.rm-root-or-glob',
  'bash.eval',
  'bash.sudo',
  'bash.chmod-world-writable',
  'bash.disk-write',
  'bash.network',
  'bash.secret-read',
] as const;
type BashSink = (typeof BASH_SINK_IDS)[number];

// ---------------------------------------------------------------------------------------------
// Command vocabulary.

const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'fish']);
const SCRIPT_INTERPRETERS: ReadonlySet<string> = new Set(['perl', 'ruby', 'node', 'php']);
const DOWNLOADERS: ReadonlySet<string> = new Set(['curl', 'wget']);
const NETWORK_COMMANDS: ReadonlySet<string> = new Set([
  'curl',
  'wget',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'ssh',
  'scp',
  'sftp',
  'telnet',
  'ftp',
]);
/** Commands that take a path argument without reading the file's content. */
const NON_READERS: ReadonlySet<string> = new Set([
  'echo',
  'printf',
  'rm',
  'rmdir',
  'chmod',
  'chown',
  'chgrp',
  'touch',
  'ls',
  'mkdir',
  'stat',
  'test',
  '[',
  '[[',
  'ssh',
  'ssh-keygen',
  'ssh-copy-id',
  'export',
  'unset',
  'cd',
  'find',
]);
/** Commands whose last operand is where they write, not something they read. */
const DESTINATION_LAST: ReadonlySet<string> = new Set(['cp', 'mv', 'ln', 'install', 'rsync']);
const BLOCK_DEVICE = /^\/dev\/(?:(?:sd|hd|vd|xvd)[a-z]|nvme\d|mmcblk\d|r?disk\d|md\d|dm-\d|mapper\/|loop\d)/;
const HARMLESS_DEVICE = /^\/dev\/(?:null|zero|u?random|stdout|stderr|stdin|tty|fd\/)/;
const WRITE_REDIRECTS: ReadonlySet<string> = new Set(['>', '>>', '&>', '&>>', '>|', '<>']);

function isPython(name: string): boolean {
  return /^(?:python(?:\d(?:\.\d+)?)?|pypy3?)$/.test(name);
}

/** How a wrapper command's own options look, so we can find the command it runs. */
interface WrapperSyntax {
  /** Options that take the next word as their value. */
  readonly valueOptions: ReadonlySet<string>;
  /** Operands before the wrapped command (timeout's duration). */
  readonly leadingOperands: number;
  /** Whether NAME=value words before the command are environment settings. */
  readonly assignments: boolean;
}

function wrapper(valueOptions: readonly string[], leadingOperands = 0, assignments = false): WrapperSyntax {
  return { valueOptions: new Set(valueOptions), leadingOperands, assignments };
}

/** Flags that make a wrapper look a command up or print something instead of running it. */
const LOOKUP_FLAGS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['command', new Set(['-v', '-V'])],
  ['sudo', new Set(['-l', '-v', '-k', '-K', '-e'])],
]);

const WRAPPERS: ReadonlyMap<string, WrapperSyntax> = new Map([
  ['sudo', wrapper(['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-U', '-T', '--user', '--group', '--host', '--prompt', '--chdir'], 0, true)],
  ['doas', wrapper(['-u', '-C'])],
  ['env', wrapper(['-u', '--unset', '-C', '--chdir', '-S', '--split-string'], 0, true)],
  ['nohup', wrapper([])],
  ['time', wrapper(['-f', '--format', '-o', '--output'])],
  ['exec', wrapper(['-a'])],
  ['command', wrapper([])],
  ['builtin', wrapper([])],
  ['nice', wrapper(['-n', '--adjustment'])],
  ['ionice', wrapper(['-c', '-n', '-p', '--class', '--classdata'])],
  ['timeout', wrapper(['-s', '--signal', '-k', '--kill-after'], 1)],
  ['stdbuf', wrapper(['-i', '-o', '-e'])],
  ['xargs', wrapper(['-I', '-n', '-P', '-d', '-L', '-s', '-E', '-a', '--max-args', '--max-procs', '--delimiter', '--arg-file', '--max-lines'])],
]);

// ---------------------------------------------------------------------------------------------
// Words.

/** Removes backslash escapes from an unquoted word (`\;` → `;`). */
function unescapeWord(text: string): string {
  return text.replace(/\\(.)/gs, '$1');
}

/** The value of a word after quote removal, or null when it depends on an expansion. */
function literalValue(node: Node): string | null {
  switch (node.type) {
    case 'word':
    case 'number':
      return unescapeWord(node.text);
    case 'raw_string':
      return node.text.slice(1, -1);
    case 'ansi_c_string':
      return node.text.slice(2, -1);
    case 'string': {
      let value = '';
      for (const part of node.namedChildren) {
        if (part.type !== 'string_content') return null;
        value += part.text.replace(/\\([$`"\\\n])/g, '$1');
      }
      return value;
    }
    case 'concatenation':
    case 'translated_string': {
      let value = '';
      for (const part of node.namedChildren) {
        const partValue = literalValue(part);
        if (partValue === null) return null;
        value += partValue;
      }
      return value;
    }
    default:
      return null;
  }
}

/** Like literalValue, but expansions are kept as written (`"$HOME"/.ssh` → `$HOME/.ssh`). */
function looseValue(node: Node): string {
  switch (node.type) {
    case 'string':
      return node.namedChildren
        .map((part) => (part.type === 'string_content' ? part.text.replace(/\\([$`"\\\n])/g, '$1') : part.text))
        .join('');
    case 'concatenation':
      return node.namedChildren.map(looseValue).join('');
    default:
      return literalValue(node) ?? node.text;
  }
}

const EXPANSIONS: ReadonlySet<string> = new Set(['simple_expansion', 'expansion', 'command_substitution']);

/** Whether the word holds an expansion outside quotes, which the shell will split and glob. */
function hasUnquotedExpansion(node: Node): boolean {
  if (EXPANSIONS.has(node.type)) return true;
  return node.type === 'concatenation' && node.namedChildren.some((part) => EXPANSIONS.has(part.type));
}

/** Names of the variables a word expands (`"$GITHUB_TOKEN"`, `${API_KEY:-x}`). */
function expandedVariables(node: Node): string[] {
  const expansions = [node, ...node.descendantsOfType(['simple_expansion', 'expansion'])].filter(
    (n) => n.type === 'simple_expansion' || n.type === 'expansion',
  );
  const names: string[] = [];
  for (const expansion of expansions) {
    const name = expansion.namedChildren.find((c) => c.type === 'variable_name');
    if (name) names.push(name.text);
  }
  return names;
}

/** Whether an option word is a short-option cluster holding `letter` (`-lc` holds `c`). */
function shortCluster(value: string | null, letter: string): boolean {
  return value !== null && /^-[A-Za-z]+$/.test(value) && value.includes(letter);
}

// ---------------------------------------------------------------------------------------------
// Commands, seen through their wrappers.

/** A command as run: its name (basename, after quote removal) and its argument words. */
interface CommandView {
  readonly name: string;
  readonly args: readonly Node[];
}

function baseName(commandPath: string): string {
  return commandPath.slice(commandPath.lastIndexOf('/') + 1);
}

/** The command a wrapper runs, or null when it runs none we can name. */
function unwrap(view: CommandView): CommandView | null {
  if (view.name === 'find') return findExec(view);
  const syntax = WRAPPERS.get(view.name);
  if (!syntax) return null;
  let operandsToSkip = syntax.leadingOperands;
  for (let i = 0; i < view.args.length; i++) {
    const arg = view.args[i] as Node;
    const value = literalValue(arg);
    if (value === null) return null;
    if (value === '--') return commandAt(view.args, i + 1);
    if (LOOKUP_FLAGS.get(view.name)?.has(value)) return null;
    if (value.startsWith('-') && value.length > 1) {
      if (syntax.valueOptions.has(value)) i++;
      continue;
    }
    if (syntax.assignments && /^[A-Za-z_]\w*=/.test(value)) continue;
    if (operandsToSkip > 0) {
      operandsToSkip--;
      continue;
    }
    return commandAt(view.args, i);
  }
  return null;
}

function commandAt(args: readonly Node[], index: number): CommandView | null {
  const first = args[index];
  const name = first ? literalValue(first) : null;
  return name === null ? null : { name: baseName(name), args: args.slice(index + 1) };
}

/** `find … -exec CMD ARGS… ;` → CMD ARGS. */
function findExec(view: CommandView): CommandView | null {
  const start = view.args.findIndex((arg) => /^-(?:exec|execdir|ok|okdir)$/.test(literalValue(arg) ?? ''));
  if (start === -1) return null;
  const rest = view.args.slice(start + 1);
  const end = rest.findIndex((arg) => {
    const value = literalValue(arg);
    return value === ';' || value === '+';
  });
  return commandAt(end === -1 ? rest : rest.slice(0, end), 0);
}

/** The command and every command it wraps: `sudo env X=1 rm -rf d` → sudo, env, rm. */
function commandViews(command: Node): CommandView[] {
  const nameNode = command.childForFieldName('name');
  const nameWord = nameNode?.firstNamedChild ?? nameNode;
  const name = nameWord ? literalValue(nameWord) : null;
  if (name === null) return [];
  const views: CommandView[] = [{ name: baseName(name), args: command.childrenForFieldName('argument') }];
  for (let inner = unwrap(views[0] as CommandView); inner && views.length < 8; inner = unwrap(inner)) views.push(inner);
  return views;
}

/** The command a pipeline stage runs (a bare command or one with redirects). */
function stageCommand(stage: Node): Node | null {
  if (stage.type === 'command') return stage;
  if (stage.type === 'redirected_statement') {
    const body = stage.childForFieldName('body');
    return body?.type === 'command' ? body : null;
  }
  return null;
}

/**
 * Whether an interpreter reads its program from stdin: `sh`, `bash -s -- -y`, `python3 -`,
 * but not `bash -c '…'`, `bash script.sh`, `python -m json.tool`.
 */
function readsProgramFromStdin(view: CommandView): boolean {
  const shell = SHELLS.has(view.name);
  const python = isPython(view.name);
  if (!shell && !python && !SCRIPT_INTERPRETERS.has(view.name)) return false;
  const codeFlags = shell ? ['c'] : python ? ['c', 'm'] : ['e', 'E', 'p', 'r'];
  for (let i = 0; i < view.args.length; i++) {
    const value = literalValue(view.args[i] as Node);
    if (value === null) return false;
    if (value === '-') return true;
    if (value === '--') return i + 1 >= view.args.length;
    if (value.startsWith('--')) {
      if (value === '--eval' || value === '--print') return false;
      if (value === '--rcfile' || value === '--init-file') i++;
      continue;
    }
    if (/^[-+][A-Za-z]+$/.test(value)) {
      if (codeFlags.some((flag) => value.slice(1).includes(flag))) return false;
      if (shell && value.slice(1).includes('s')) return true;
      if ((shell && /^[-+][oO]$/.test(value)) || (python && /^-[WX]$/.test(value))) i++;
      continue;
    }
    return false; // a script file operand
  }
  return true;
}

/** The program argument of `bash -c PROGRAM` / `python -c PROGRAM`, if any. */
function inlineProgram(view: CommandView): Node | null {
  let sawFlag = false;
  for (const arg of view.args) {
    const value = literalValue(arg);
    if (sawFlag) return arg;
    if (shortCluster(value, 'c')) sawFlag = true;
    else if (value === null || !value.startsWith('-')) return null;
  }
  return null;
}

/** Whether a word runs a download inside `$(…)`, backticks or `<(…)`. */
function runsDownload(word: Node): boolean {
  const substitutions = [word, ...word.descendantsOfType(['command_substitution', 'process_substitution'])].filter(
    (n) => n.type === 'command_substitution' || n.type === 'process_substitution',
  );
  return substitutions.some((sub) =>
    sub.descendantsOfType('command').some((cmd) => commandViews(cmd).some((view) => DOWNLOADERS.has(view.name))),
  );
}

// ---------------------------------------------------------------------------------------------
// Modes and targets.

/** chmod modes that make a file writable by everyone: 777, 666, o+w, a+w, a=rwx … */
function isWorldWritableMode(mode: string): boolean {
  if (/^[0-7]{3,4}$/.test(mode)) return (Number(mode.slice(-1)) & 2) !== 0;
  return mode.split(',').some((clause) => {
    const m = /^([ugoa]*)([-+=])([rwxXst]*)$/.exec(clause);
    return m !== null && /[oa]/.test(m[1] ?? '') && m[2] !== '-' && (m[3] ?? '').includes('w');
  });
}

/** dd's `of=/dev/…` operand, unless the device is a harmless one like /dev/null. */
function writesDevice(arg: Node): boolean {
  const value = literalValue(arg) ?? '';
  return value.startsWith('of=/dev/') && !HARMLESS_DEVICE.test(value.slice(3));
}

function isMode(value: string): boolean {
  return /^[0-7]{3,4}$/.test(value) || /^(?:[ugoa]*[-+=][rwxXst]*)(?:,[ugoa]*[-+=][rwxXst]*)*$/.test(value);
}

/** rm targets that sweep far more than meant: /, ~, $HOME, *, an unquoted or empty-able variable. */
function isSweepingTarget(arg: Node): boolean {
  if (hasUnquotedExpansion(arg)) return true;
  let value = looseValue(arg);
  if (value.length > 1) value = value.replace(/\/+$/, '');
  return /^(?:\/|\/\*|\*|\.\*|\.\/\*|~|~\/\*|\$\{?HOME\}?(?:\/\*)?|\$\{?\w+\}?\/\*)$/.test(value);
}

// ---------------------------------------------------------------------------------------------
// The walk.

/** Unpacks a shell word (quoted or not) into the code it spells, positions kept. */
function shellWordSlice(word: Node, code: CodeSlice): CodeSlice {
  const builder = new SliceBuilder();
  appendShellWord(builder, word, code);
  return builder.build(code.origin(word.endIndex));
}

function appendShellWord(builder: SliceBuilder, word: Node, code: CodeSlice): void {
  switch (word.type) {
    case 'raw_string':
      builder.copy(code, word.startIndex + 1, word.endIndex - 1);
      return;
    case 'ansi_c_string':
      builder.copy(code, word.startIndex + 2, word.endIndex - 1);
      return;
    case 'string':
      copyUnescaping(builder, code, word.startIndex + 1, word.endIndex - 1, /["\\$`\n]/);
      return;
    case 'word':
      copyUnescaping(builder, code, word.startIndex, word.endIndex, /[^]/);
      return;
    case 'concatenation':
      for (const part of word.namedChildren) appendShellWord(builder, part, code);
      return;
    default:
      builder.copy(code, word.startIndex, word.endIndex);
  }
}

/** Copies text, dropping a backslash before any character `escapable` matches. */
function copyUnescaping(builder: SliceBuilder, code: CodeSlice, start: number, end: number, escapable: RegExp): void {
  for (let i = start; i < end; i++) {
    const ch = code.text.charAt(i);
    if (ch === '\\' && i + 1 < end && escapable.test(code.text.charAt(i + 1))) {
      i++;
      if (code.text.charAt(i) !== '\n') builder.copy(code, i, i + 1);
      continue;
    }
    builder.copy(code, i, i + 1);
  }
}

class BashWalk {
  constructor(
    private readonly context: WalkContext,
    private readonly code: CodeSlice,
    private readonly depth: number,
  ) {}

  private report(sink: BashSink, node: Node): void {
    this.context.report(sink, this.code, node.startIndex, node.endIndex);
  }

  visit(node: Node): void {
    switch (node.type) {
      case 'command':
        this.inspectCommand(node);
        break;
      case 'pipeline':
        this.inspectPipeline(node);
        break;
      case 'file_redirect':
        this.inspectRedirect(node);
        break;
      case 'redirected_statement':
        this.inspectHeredoc(node);
        break;
    }
  }

  private inspectCommand(command: Node): void {
    const views = commandViews(command);
    for (const view of views) {
      const { name, args } = view;
      if (name === 'sudo' || name === 'doas') this.report('bash.sudo', command);
      if (name === 'eval') {
        this.report('bash.eval', command);
        if (args.some(runsDownload)) this.report('bash.pipe-to-shell', command);
      }
      if ((name === 'source' || name === '.') && args.some(runsDownload)) this.report('bash.pipe-to-shell', command);
      if (name === 'rm') this.inspectRm(command, args);
      if (name === 'chmod') this.inspectChmod(command, args);
      if ((name === 'dd' && args.some(writesDevice)) || /^mkfs(?:\..+)?$|^mke2fs$|^wipefs$/.test(name)) {
        this.report('bash.disk-write', command);
      }
      if (NETWORK_COMMANDS.has(name) || (name === 'rsync' && args.some((arg) => isRemoteRsyncOperand(looseValue(arg))))) {
        this.report('bash.network', command);
      }
      if (SHELLS.has(name) || isPython(name)) this.inspectInterpreter(command, view);
    }
    const innermost = views[views.length - 1];
    if (innermost) this.inspectSecretRead(command, innermost);
  }

  private inspectRm(command: Node, args: readonly Node[]): void {
    let recursive = false;
    let noPreserveRoot = false;
    let optionsEnded = false;
    const targets: Node[] = [];
    for (const arg of args) {
      const value = literalValue(arg);
      if (!optionsEnded && value !== null && value.startsWith('-') && value !== '-') {
        if (value === '--') optionsEnded = true;
        else if (value === '--recursive') recursive = true;
        else if (value === '--no-preserve-root') noPreserveRoot = true;
        else if (!value.startsWith('--') && /[rR]/.test(value)) recursive = true;
        continue;
      }
      targets.push(arg);
    }
    if (!recursive) return;
    this.report('bash.rm-recursive', command);
    if (noPreserveRoot || targets.some(isSweepingTarget)) this.report('bash.rm-root-or-glob', command);
  }

  private inspectChmod(command: Node, args: readonly Node[]): void {
    for (const arg of args) {
      const value = literalValue(arg);
      if (value === null) continue;
      if (isMode(value)) {
        if (isWorldWritableMode(value)) this.report('bash.chmod-world-writable', command);
        return; // only the first mode word is the mode
      }
    }
  }

  /** `bash -c '…'`, `python -c '…'`, `bash <(curl …)`, `bash -c "$(curl …)"`, `bash <<< "$(curl …)"`. */
  private inspectInterpreter(command: Node, view: CommandView): void {
    const program = inlineProgram(view);
    if (program) this.context.scanNested(isPython(view.name) ? 'python' : 'bash', shellWordSlice(program, this.code), this.depth + 1);
    const herestrings = command.namedChildren.filter((child) => child.type === 'herestring_redirect');
    if ([...view.args, ...herestrings].some(runsDownload)) this.report('bash.pipe-to-shell', command);
  }

  /** `curl … | sh`: a download piped into an interpreter that runs what it reads. */
  private inspectPipeline(pipeline: Node): void {
    let downloaded = false;
    for (const stage of pipeline.namedChildren) {
      const command = stageCommand(stage);
      if (!command) continue;
      const views = commandViews(command);
      if (downloaded && views.some(readsProgramFromStdin)) {
        this.report('bash.pipe-to-shell', pipeline);
        return;
      }
      if (views.some((view) => DOWNLOADERS.has(view.name))) downloaded = true;
    }
  }

  /** `> /dev/sda` writes a raw disk; `< ~/.ssh/id_rsa` reads a secret. */
  private inspectRedirect(redirect: Node): void {
    const destination = redirect.childForFieldName('destination');
    if (!destination) return;
    const operator = redirect.children.find((child) => !child.isNamed)?.text ?? '';
    const target = looseValue(destination);
    const statement = redirect.parent?.type === 'redirected_statement' ? redirect.parent : redirect;
    if (WRITE_REDIRECTS.has(operator) && BLOCK_DEVICE.test(target)) this.report('bash.disk-write', statement);
    if (operator === '<' && isSecretPath(target)) this.report('bash.secret-read', statement);
  }

  /** `python3 - <<EOF … EOF`, `bash <<'EOF' … EOF`: the heredoc is the program, so scan it. */
  private inspectHeredoc(statement: Node): void {
    const body = statement.childForFieldName('body');
    if (body?.type !== 'command') return;
    const interpreter = commandViews(body).find(readsProgramFromStdin);
    if (!interpreter || !(SHELLS.has(interpreter.name) || isPython(interpreter.name))) return;
    for (const redirect of statement.namedChildren) {
      if (redirect.type !== 'heredoc_redirect') continue;
      const heredoc = redirect.namedChildren.find((child) => child.type === 'heredoc_body');
      if (!heredoc) continue;
      const builder = new SliceBuilder();
      builder.copy(this.code, heredoc.startIndex, heredoc.endIndex);
      this.context.scanNested(
        isPython(interpreter.name) ? 'python' : 'bash',
        builder.build(this.code.origin(heredoc.endIndex)),
        this.depth + 1,
      );
    }
  }

  /** Reading credential files, or printing secret environment variables. */
  private inspectSecretRead(command: Node, view: CommandView): void {
    const { name, args } = view;
    if (name === 'echo' || name === 'printf') {
      if (args.some((arg) => expandedVariables(arg).some(isSecretName))) this.report('bash.secret-read', command);
      return;
    }
    if (name === 'printenv') {
      if (args.some((arg) => isSecretName(literalValue(arg) ?? ''))) this.report('bash.secret-read', command);
      return;
    }
    if (NON_READERS.has(name) || WRAPPERS.has(name)) return;
    const read = DESTINATION_LAST.has(name) && args.length >= 2 ? args.slice(0, -1) : args;
    if (read.some((arg) => secretPathCandidates(looseValue(arg)).some(isSecretPath))) this.report('bash.secret-read', command);
  }
}

/** `user@host:path`, `host:path`, `rsync://…` — but not a local path with a colon after a slash. */
function isRemoteRsyncOperand(value: string): boolean {
  return /^rsync:\/\//.test(value) || /^(?:[\w.-]+@)?[\w.-]+:/.test(value);
}

/** A word and the paths it may carry: `@file` (curl -d), `key=file`, `host:file` (scp). */
function secretPathCandidates(value: string): string[] {
  const candidates = [value];
  const at = value.lastIndexOf('@');
  if (at !== -1) candidates.push(value.slice(at + 1));
  const eq = value.indexOf('=');
  if (eq !== -1) candidates.push(value.slice(eq + 1).replace(/^@/, ''));
  const remote = /^(?:[\w.-]+@)?[\w.-]+:(.+)$/.exec(value);
  if (remote?.[1]) candidates.push(remote[1]);
  return candidates;
}

const VISITED_TYPES = ['command', 'pipeline', 'file_redirect', 'redirected_statement'];

/** Walks bash `code` (error-tolerant: a broken script still yields its well-formed commands). */
export function walkBash(context: WalkContext, code: CodeSlice, depth: number): void {
  const tree = context.parse('bash', code.text);
  if (!tree) return;
  try {
    const walk = new BashWalk(context, code, depth);
    // One query inside the wasm parser beats stepping a cursor over every token from JS.
    for (const node of tree.rootNode.descendantsOfType(VISITED_TYPES)) walk.visit(node);
  } finally {
    tree.delete();
  }
}
