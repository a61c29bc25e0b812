/**
 * Risk scanner: finds unsafe sinks — subprocesses, file deletion, network, secret reads, code
 * execution — in bash, Python, JavaScript and TypeScript, so the verifier can weigh how risky a
 * procedure is against the side effects it declares.
 *
 * It walks real syntax trees (tree-sitter for bash and Python, oxc-parser for JS/TS), never
 * keyword matches over raw text, so a comment or string that merely mentions `rm -rf` does not
 * count. Code hidden inside strings that a shell will run (`bash -c '…'`, `subprocess.run("…")`,
 * `exec('…')`) is re-parsed as bash, with every position mapped back to the scanned code.
 *
 * What a sink *is* (category, weight, description) is data: rules/risk-sinks.json, validated by
 * schemas/risk-sinks.schema.json. The language walkers (bash.ts, python.ts, js.ts) only decide
 * which sink id fired where. Parsers are heavy, so they load lazily and once, in
 * createRiskScanner; after that, scan() is synchronous, pure and deterministic.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Language, Parser, Tree } from 'web-tree-sitter';
import { packageRoot } from '../util/package-root.js';
import { looksLikeShellSession, stripShellPrompts } from './languages.js';
import { JS_SINK_IDS } from './js-sinks.js';
import type { JsProgramParser } from './js.js';
import { collapse } from '../text/collapse.js';

export type CodeLanguage = 'bash' | 'python' | 'javascript' | 'typescript';
export type SinkCategory = 'filesystem' | 'network' | 'subprocess' | 'secrets' | 'code-exec';
/** The language a catalogue sink belongs to; `js` sinks apply to JavaScript and TypeScript alike. */
export type SinkLanguage = 'bash' | 'python' | 'js';

export interface RiskFinding {
  readonly sink: string;
  readonly category: SinkCategory;
  readonly weight: number;
  readonly line: number;
  readonly column: number;
  readonly snippet: string;
}

export interface ScanResult {
  readonly findings: readonly RiskFinding[];
  readonly parseError?: string;
}

export interface ScanOptions {
  /**
   * Treat bash code as an interactive transcript (```console / ```shell-session): only `$ ` and
   * `> ` prompt lines are commands. Defaults to true when the first non-blank line starts with `$ `.
   */
  readonly shellSession?: boolean;
}

export interface RiskScanner {
  scan(code: string, language: CodeLanguage, options?: ScanOptions): ScanResult;
}

/** One entry of rules/risk-sinks.json. */
export interface RiskSink {
  readonly id: string;
  readonly language: SinkLanguage;
  readonly category: SinkCategory;
  readonly weight: number;
  readonly description: string;
}

export interface RiskCatalogue {
  readonly schemaVersion: 1;
  readonly sinks: readonly RiskSink[];
}

// ---------------------------------------------------------------------------------------------
// What the language walkers share: code slices with a position map, and the walk context.

/**
 * Code handed to a walker: its text, and for each of its characters the span of the originally
 * scanned code it came from (identity at top level; a mapping for code unpacked from a string,
 * where an escape like `\n` or a `{value}` placeholder stands for several source characters).
 */
export interface CodeSlice {
  readonly text: string;
  /** Where character `index` starts in the scanned code. */
  origin(index: number): number;
  /** Where character `index` ends (exclusive) in the scanned code. */
  originEnd(index: number): number;
}

/** The top-level slice: the scanned code itself. */
export function wholeCode(text: string): CodeSlice {
  return { text, origin: (index) => index, originEnd: (index) => index + 1 };
}

/** What a walker may do: parse, report a sink, and hand unpacked code to another walker. */
export interface WalkContext {
  parse(language: 'bash' | 'python', text: string): Tree | null;
  /** Records that `sink` fired on the node spanning `code.text[start, end)`. */
  report(sink: string, code: CodeSlice, start: number, end: number): void;
  /** Scans code found inside a string (e.g. a `bash -c` argument), one nesting level deeper. */
  scanNested(language: 'bash' | 'python', code: CodeSlice, depth: number): void;
}

/** Builds a CodeSlice piece by piece, remembering where each character came from. */
export class SliceBuilder {
  private readonly chars: string[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  /**
   * Appends text that stands for `from.text[start, end)` as a whole: a decoded escape, an
   * interpolation placeholder, a quote (an empty span maps to the point `start`).
   */
  pushFor(text: string, from: CodeSlice, start: number, end: number): void {
    const origin = from.origin(start);
    const originEnd = end > start ? from.originEnd(end - 1) : origin;
    for (let k = 0; k < text.length; k++) {
      this.chars.push(text.charAt(k)); // UTF-16 units, like every index here
      this.starts.push(origin);
      this.ends.push(originEnd);
    }
  }

  /** Appends `from.text[start, end)` verbatim. */
  copy(from: CodeSlice, start: number, end: number): void {
    for (let i = start; i < end; i++) {
      this.chars.push(from.text.charAt(i));
      this.starts.push(from.origin(i));
      this.ends.push(from.originEnd(i));
    }
  }

  /** Appends a whole slice, keeping its origins. */
  append(slice: CodeSlice): void {
    this.copy(slice, 0, slice.text.length);
  }

  /**
   * Appends `from.text[start, end)` as the body of a Python or JS string literal, decoding the
   * escapes that change what a shell would see (\n \t \r \\ \' \" and line continuations; in JS
   * also \` and \$); other escapes are kept as written.
   */
  copyDecodingEscapes(from: CodeSlice, start: number, end: number, language: 'python' | 'js'): void {
    const escapes = language === 'js' ? JS_ESCAPES : PYTHON_ESCAPES;
    for (let i = start; i < end; i++) {
      const decoded = from.text.charAt(i) === '\\' && i + 1 < end ? escapes[from.text.charAt(i + 1)] : undefined;
      if (decoded === undefined) {
        this.copy(from, i, i + 1);
        continue;
      }
      this.pushFor(decoded, from, i, i + 2);
      i++;
    }
  }

  get length(): number {
    return this.chars.length;
  }

  /** The finished slice; indices past its end map to `endOrigin`. */
  build(endOrigin: number): CodeSlice {
    const text = this.chars.join('');
    const starts = this.starts.slice();
    const ends = this.ends.slice();
    return { text, origin: (index) => starts[index] ?? endOrigin, originEnd: (index) => ends[index] ?? endOrigin };
  }
}

const PYTHON_ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '\n': '',
};
const JS_ESCAPES: Readonly<Record<string, string>> = { ...PYTHON_ESCAPES, '`': '`', $: '$' };

/** Placeholder written into unpacked shell code where the host language interpolated a value. */
export const INTERPOLATION_PLACEHOLDER = '${__expr}';

/** Whether `text` is one shell word that needs no quoting. */
export function isPlainShellWord(text: string): boolean {
  return /^[\w@%+=:,./-]+$/.test(text);
}

/**
 * Appends one argv element as a shell word: verbatim if plain, otherwise single-quoted (so
 * `["bash", "-c", "curl x | sh"]` becomes `bash -c 'curl x | sh'`, one word as in argv).
 */
export function appendAsShellWord(builder: SliceBuilder, word: CodeSlice): void {
  if (isPlainShellWord(word.text)) {
    builder.append(word);
    return;
  }
  const length = word.text.length;
  builder.pushFor("'", word, 0, Math.min(1, length));
  for (let i = 0; i < length; i++) {
    if (word.text.charAt(i) === "'") builder.pushFor("'\\''", word, i, i + 1);
    else builder.copy(word, i, i + 1);
  }
  builder.pushFor("'", word, Math.max(0, length - 1), length);
}

// ---------------------------------------------------------------------------------------------
// What counts as a secret, shared by every language.

const SECRET_WORD = /(?:TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|CREDS)S?$/i;
const KEY_WORD = /^(?:KEY|KEYS|APIKEY|PRIVATEKEY|ACCESSKEY|SECRETKEY|AUTHKEY)$/i;

/**
 * Whether an environment variable (or key) name names a secret: one of its words (split at `_`,
 * `-`, `.` and camelCase) ends in TOKEN, SECRET, PASSWORD, PASSWD, CREDENTIAL(S) or CREDS, or is
 * KEY. `GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`, `DB_PASSWORD`, `apiKey` are; `KEYBOARD`,
 * `TOKENIZERS_PARALLELISM`, `HOME` are not.
 */
export function isSecretName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .split(/[_.\-\s]+/)
    .filter((w) => w !== '');
  return words.some((w) => SECRET_WORD.test(w) || KEY_WORD.test(w));
}

const SECRET_PATHS: readonly RegExp[] = [
  /(?:^|\/)\.ssh\/?$/, // the whole ~/.ssh folder
  /(?:^|\/)\.ssh\/(?![^/]*\.pub$)(?!known_hosts2?$)(?!config$)(?!authorized_keys2?$)[^/]+$/,
  /(?:^|\/)id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?$/,
  /(?:^|\/)\.aws\/credentials$/,
  /(?:^|\/)\.env(?:\.(?!example$|sample$|template$|dist$|defaults$)[\w.-]+)?$/,
  /^\/etc\/g?shadow$/,
  /(?:^|\/)\.netrc$/,
  /(?:^|\/)\.git-credentials$/,
  /(?:^|\/)\.pgpass$/,
  /(?:^|\/)\.kube\/config$/,
  /(?:^|\/)\.docker\/config\.json$/,
  /(?:^|\/)\.gnupg(?:\/|$)/,
];

/**
 * Whether a file path points at credentials: ~/.ssh keys, ~/.aws/credentials, .env files (not
 * .env.example), /etc/shadow, .netrc, .git-credentials, .pgpass, kube/docker configs, ~/.gnupg.
 * `$HOME`, `${HOME}` and `~` prefixes are treated alike; surrounding quotes are ignored.
 */
export function isSecretPath(rawPath: string): boolean {
  const p = rawPath
    .trim()
    .replace(/^["']|["']$/g, '')
    .replace(/^(?:\$\{HOME\}|\$HOME)(?=\/|$)/, '~');
  if (p === '') return false;
  return SECRET_PATHS.some((re) => re.test(p));
}

// ---------------------------------------------------------------------------------------------
// The catalogue.

const SINK_LANGUAGES: ReadonlySet<string> = new Set<SinkLanguage>(['bash', 'python', 'js']);
const SINK_CATEGORIES: ReadonlySet<string> = new Set<SinkCategory>([
  'filesystem',
  'network',
  'subprocess',
  'secrets',
  'code-exec',
]);

/**
 * Structural check of a catalogue, for loading without pulling in ajv (the CLI must start fast);
 * schemas/risk-sinks.schema.json states the same rules and a test keeps the two in step.
 */
function checkCatalogue(data: unknown, source: string): RiskCatalogue {
  const fail = (why: string): never => {
    throw new Error(`skillc: invalid risk catalogue ${source}: ${why}`);
  };
  if (typeof data !== 'object' || data === null || Array.isArray(data)) fail('not a JSON object');
  const doc = data as { schemaVersion?: unknown; sinks?: unknown };
  if (doc.schemaVersion !== 1) fail('schemaVersion must be 1');
  if (!Array.isArray(doc.sinks)) fail('"sinks" must be an array');
  const seen = new Set<string>();
  for (const [i, entry] of (doc.sinks as unknown[]).entries()) {
    const sink = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const { id, language, category, weight, description } = sink;
    if (typeof id !== 'string' || !/^(?:bash|python|js)\.[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id)) fail(`sinks[${i}].id is malformed`);
    if (seen.has(id as string)) fail(`duplicate sink id ${String(id)}`);
    seen.add(id as string);
    if (typeof language !== 'string' || !SINK_LANGUAGES.has(language)) fail(`sinks[${i}].language is not bash, python or js`);
    if (!(id as string).startsWith(`${String(language)}.`)) fail(`sink ${String(id)} does not start with its language`);
    if (typeof category !== 'string' || !SINK_CATEGORIES.has(category)) fail(`sinks[${i}].category is unknown`);
    if (typeof weight !== 'number' || !(weight > 0 && weight <= 1)) fail(`sinks[${i}].weight must be in (0, 1]`);
    if (typeof description !== 'string' || description.trim() === '') fail(`sinks[${i}].description is empty`);
  }
  return data as RiskCatalogue;
}

let defaultCatalogue: RiskCatalogue | undefined;

/** Reads and checks rules/risk-sinks.json from skillc's own package (cached). */
export function loadRiskCatalogue(): RiskCatalogue {
  if (defaultCatalogue) return defaultCatalogue;
  const file = path.join(packageRoot(), 'rules', 'risk-sinks.json');
  const data: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  defaultCatalogue = checkCatalogue(data, file);
  return defaultCatalogue;
}

// ---------------------------------------------------------------------------------------------
// Loading parsers, once per process.

interface Grammars {
  readonly ParserClass: typeof Parser;
  readonly bash: Language;
  readonly python: Language;
}

let grammarsLoading: Promise<Grammars> | undefined;

function loadGrammars(): Promise<Grammars> {
  grammarsLoading ??= (async () => {
    const { Parser: ParserClass, Language: LanguageClass } = await import('web-tree-sitter');
    await ParserClass.init();
    const resolve = createRequire(import.meta.url).resolve;
    const [bash, python] = await Promise.all([
      LanguageClass.load(resolve('tree-sitter-bash/tree-sitter-bash.wasm')),
      LanguageClass.load(resolve('tree-sitter-python/tree-sitter-python.wasm')),
    ]);
    return { ParserClass, bash, python };
  })();
  // A failed load (e.g. a missing grammar) may be retried by the next caller.
  grammarsLoading.catch(() => {
    grammarsLoading = undefined;
  });
  return grammarsLoading;
}

/** Deepest nesting of code-in-strings we unpack (`bash -c "python -c '…'"` is two levels). */
const MAX_NESTING = 6;
const SNIPPET_MAX = 120;

/** A node's text on one line, whitespace collapsed, at most SNIPPET_MAX characters. */
function snippetOf(text: string): string {
  const line = collapse(text);
  return line.length <= SNIPPET_MAX ? line : `${line.slice(0, SNIPPET_MAX - 1)}…`;
}

/** Start index of every line of `code`, for turning indices into 1-based line and column. */
function lineStarts(code: string): number[] {
  const starts = [0];
  for (let i = code.indexOf('\n'); i !== -1; i = code.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function lineAndColumn(starts: readonly number[], index: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= index) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: index - (starts[lo] ?? 0) + 1 };
}

function compareFindings(a: RiskFinding, b: RiskFinding): number {
  return (
    a.line - b.line ||
    a.column - b.column ||
    (a.sink < b.sink ? -1 : a.sink > b.sink ? 1 : 0) ||
    (a.snippet < b.snippet ? -1 : a.snippet > b.snippet ? 1 : 0)
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Loads the parsers (once per process) and returns a scanner over `catalogue` (default:
 * rules/risk-sinks.json). Every catalogue id must have a detector; a detector whose id the
 * catalogue leaves out is switched off, so a trimmed catalogue disables sinks.
 */
export interface RiskScannerOptions {
  /**
   * Load the JavaScript/TypeScript walker (oxc-parser, about 11 ms to load). Default true;
   * `skillc lint` passes false when a skill has no JS or TS code, and scan() then reports JS and
   * TS code as not scanned instead of loading it.
   */
  readonly javascript?: boolean;
  /**
   * Parses JS/TS for the walker instead of oxc-parser. Only bench/js-parser-parity.ts sets it, to
   * run typescript-estree through the same walker and compare.
   */
  readonly parseJs?: JsProgramParser;
}

export async function createRiskScanner(catalogue: RiskCatalogue = loadRiskCatalogue(), options: RiskScannerOptions = {}): Promise<RiskScanner> {
  checkCatalogue(catalogue, '(given)');
  const withJs = options.javascript ?? true;
  const parseJs = options.parseJs;
  const [grammars, bashWalker, pythonWalker, jsWalker] = await Promise.all([
    loadGrammars(),
    import('./bash.js'),
    import('./python.js'),
    withJs ? import('./js.js') : Promise.resolve(null),
  ]);
  const detectors = new Set<string>([...bashWalker.BASH_SINK_IDS, ...pythonWalker.PYTHON_SINK_IDS, ...JS_SINK_IDS]);
  const sinks = new Map<string, RiskSink>();
  for (const sink of catalogue.sinks) {
    if (!detectors.has(sink.id)) throw new Error(`skillc: risk catalogue sink "${sink.id}" has no detector`);
    sinks.set(sink.id, sink);
  }

  const bashParser = new grammars.ParserClass().setLanguage(grammars.bash);
  const pythonParser = new grammars.ParserClass().setLanguage(grammars.python);

  function scan(source: string, language: CodeLanguage, options?: ScanOptions): ScanResult {
    // A lone CR ends a line for CommonMark and for a reader of the skill, but not for the shell,
    // Python or JS grammars: `echo start\rrm -rf /` would be one harmless-looking command to
    // them. Same length, so positions are unchanged.
    const code = source.includes('\r') ? source.replace(/\r(?!\n)/g, '\n') : source;
    let text = code;
    if (language === 'bash' && (options?.shellSession ?? looksLikeShellSession(code))) text = stripShellPrompts(code);

    const hits = new Map<string, { sink: RiskSink; origin: number; nodeText: string }>();
    const context: WalkContext = {
      parse: (lang, source) => (lang === 'bash' ? bashParser : pythonParser).parse(source),
      report(sinkId, slice, start, end) {
        const sink = sinks.get(sinkId);
        const origin = slice.origin(start);
        const key = `${sinkId}@${origin}`;
        if (!sink || hits.has(key)) return;
        // The snippet is the node as written in the scanned code, even when it was unpacked from
        // a string; if the mapping runs backwards (it should not), fall back to the unpacked text.
        const originEnd = end > start ? slice.originEnd(end - 1) : origin;
        const nodeText = originEnd > origin ? text.slice(origin, originEnd) : slice.text.slice(start, end);
        hits.set(key, { sink, origin, nodeText });
      },
      scanNested(lang, slice, depth) {
        if (depth > MAX_NESTING) return;
        if (lang === 'bash') bashWalker.walkBash(context, slice, depth);
        else pythonWalker.walkPython(context, slice, depth);
      },
    };

    const root = wholeCode(text);

    let parseError: string | undefined;
    try {
      if (language === 'bash') bashWalker.walkBash(context, root, 0);
      else if (language === 'python') pythonWalker.walkPython(context, root, 0);
      else if (jsWalker) parseError = jsWalker.walkJs(context, root, language === 'typescript', 0, parseJs);
      else parseError = 'JavaScript/TypeScript scanning was not loaded (createRiskScanner with javascript: false)';
    } catch (error) {
      // Walkers are written not to throw; if one does, keep what was found and say so.
      parseError = `risk scanner failed: ${messageOf(error)}`;
    }

    const starts = lineStarts(code);
    const findings: RiskFinding[] = [...hits.values()].map(({ sink, origin, nodeText }) => ({
      sink: sink.id,
      category: sink.category,
      weight: sink.weight,
      ...lineAndColumn(starts, Math.min(Math.max(origin, 0), code.length)),
      snippet: snippetOf(nodeText),
    }));
    findings.sort(compareFindings);
    return parseError === undefined ? { findings } : { findings, parseError };
  }

  return { scan };
}
