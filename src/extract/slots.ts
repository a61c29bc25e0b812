/**
 * Names and types for template slots (issue 19 item 5), from the text around the slot and the
 * values seen in the members, in this order: the flag before it (`--output {output}`); the key it
 * is assigned to (`numOfDays: {x}`, `model={x}`, `toolkits: [{x}]`); the command or preposition
 * before it (`install` → package, `from` → source); the noun after it in a step or inline span
 * (`your {x} account`); else the kind of its values (url, path, image, count, version, options,
 * name, text). Types come from the closed set of SPEC §4.
 */
import type { FieldType } from '../ir/types.js';
import { STOP_WORDS } from '../text/tokens.js';
import { loadVerbLexicon } from '../propose/lexicon.js';

const EXT_TYPES: Record<string, FieldType> = {
  png: 'image', jpg: 'image', jpeg: 'image', gif: 'image', webp: 'image', bmp: 'image', tif: 'image', tiff: 'image', svg: 'image',
  pdf: 'document', docx: 'document', doc: 'document', pptx: 'document', odt: 'document', md: 'document', txt: 'document', html: 'document', rtf: 'document',
  csv: 'table', tsv: 'table', xlsx: 'table', xls: 'table', parquet: 'table',
  json: 'json', jsonl: 'json',
};

// An extension has a letter: `192.168.1.100` and `1.2.3` are an address and a version, not files
// (nameFromValues reads extensions the same way).
const FILE_RE = /^["']?[\w.~\/-]*\.(?=[0-9]{0,5}[A-Za-z])[A-Za-z0-9]{1,6}["']?$|^["']?(\.{0,2}\/|~\/)[\w.\/-]+["']?$/;
const URL_RE = /^["']?https?:\/\//;

export interface SlotShape {
  readonly name: string;
  readonly type: FieldType;
  readonly output: boolean;
  /** Set when no word around the slot named it and the name is only its values' kind. */
  readonly byKind?: true;
}

export interface SlotContext {
  /** Constant tokens before the slot, nearest first. */
  readonly before: readonly string[];
  /** The constant token right after the slot. */
  readonly after?: string | undefined;
  /**
   * Whether the line reads as words rather than a shell command line (a numbered step, an inline
   * span, a line of a text block of actions), where the nouns around a slot name it.
   */
  readonly prose?: boolean;
  /** How many constant tokens of the line stand before the slot (the first is the command). */
  readonly leading?: number;
  /** Every constant token before the slot, nearest first, past other slots (`pip install {a} numpy {b}`). */
  readonly reach?: readonly string[];
}

/** Names that say nothing about the value: what is left when no evidence names a slot. */
export const GENERIC_SLOT_NAMES: ReadonlySet<string> = new Set(['value', 'target', 'items', 'item', 'arg', 'args', 'param', 'x', 'thing', 'slot', 'text']);

const OUTPUT_FLAG = /^(--?o|--out|--output|--output-file|--outfile|--out-file|--dest|--destination|>|>>|-O)$/;
const SHORT_FLAGS: Record<string, string> = { i: 'input', f: 'file', d: 'directory', c: 'config', p: 'path', n: 'count', t: 'tag', u: 'user', e: 'env', k: 'key', r: 'requirements', m: 'module' };
const WORD_BEFORE: readonly [RegExp, string][] = [
  // `add` names packages only after a package manager (packagesOf); `git add` adds files.
  [/^(install|require|uninstall)$/i, 'package'],
  [/^(cd|mkdir|ls|rmdir|pushd)$/, 'directory'],
  [/^clone$/, 'repository'],
  [/^(curl|wget|fetch|goto|open_url|navigate)$/, 'url'],
  [/^(python3?|node|bash|sh|ruby|deno|bun|tsx|ts-node|pwsh|perl|php|uv|run)$/, 'script'],
  [/^(cat|head|tail|less|more|touch|chmod|rm|vim|nano|code|read|edit|write)$/, 'file'],
  [/^(take|pick|grab|move|put|place|heat|cool|clean|wash|slice|examine|toggle|hold|drop|use|focus|inspect)$/i, 'object'],
  [/^(open|close)$/i, 'receptacle'],
  [/^from$/i, 'source'],
  [/^(to|into|onto)$/i, 'destination'],
  [/^(in|on|at|in\/on)$/i, 'location'],
  [/^with$/i, 'tool'],
  [/^(commit|tag|checkout|switch|branch|merge|rebase)$/i, 'ref'],
];

export function shapeSlot(context: SlotContext | string | undefined, values: readonly string[]): SlotShape {
  const ctx: SlotContext = typeof context === 'object' ? context : { before: context === undefined ? [] : [context] };
  const present = values.filter((v) => v !== '');
  const type = typeOf(present);
  const b0 = ctx.before[0] ?? '';
  // Values that are all flags (`--inplace`, `-v -x`) are options, whatever flag stands before
  // them: that flag takes no value (`--execute {x}`).
  const flags = present.length > 0 && present.every((v) => /^-/.test(v));
  const output = !flags && OUTPUT_FLAG.test(b0.replace(/[=:]$/, ''));
  const named = flags ? 'options' : output ? 'output' : packagesOf(ctx, present) ?? nameFromContext(ctx) ?? sharedHead(present);
  return named !== null ? { name: named, type, output } : { name: nameFromValues(type, present), type, output, byKind: true };
}

/**
 * Package names after an install command, past its flags and the packages it names before the
 * slot (`npm install --save-dev {x}`, `pip install torch numpy {x}`). `add` counts only after a
 * package manager: `git add {x}` adds files.
 */
function packagesOf(ctx: SlotContext, present: readonly string[]): string | null {
  const before = ctx.reach ?? ctx.before;
  const i = before.findIndex((t) => !/^-/.test(t) && !(/^[a-z][\w.-]*$/.test(t) && !/^(install|add|i)$/.test(t)));
  if (i < 0) return null;
  const verb = before[i]!;
  const manager = before[i + 1] ?? '';
  const installs = verb === 'install' || (verb === 'add' && PACKAGE_MANAGERS.test(manager)) || (verb === 'i' && /^(npm|pnpm|yarn|bun)$/.test(manager));
  if (!installs) return null;
  if (present.length === 0 || !present.every((v) => /^[@\w][\w@/.\-^~=<>[\],]*( [@\w][\w@/.\-^~=<>[\],]*)*$/.test(v))) return null;
  return present.some((v) => /\s/.test(v)) ? 'packages' : 'package';
}

const PACKAGE_MANAGERS = /^(npm|pnpm|yarn|bun|cargo|poetry|uv|pipx|conda|mamba|brew|apt|apt-get|dnf|yum|apk|gem|go|dotnet|composer|skills)$/;

/**
 * The word every value ends with, when the values are phrases that share their head noun
 * (`client configuration`, `configuration`; `(OAuth authentication)`, `(API key authentication).`).
 */
function sharedHead(present: readonly string[]): string | null {
  if (present.length < 2 || !present.some((v) => /\s/.test(v))) return null;
  const heads = new Set(present.map((v) => (/([A-Za-z]+)[^A-Za-z]*$/.exec(v)?.[1] ?? '').toLowerCase()));
  const [head] = heads;
  return heads.size === 1 && head && head.length >= 4 && !STOP_WORDS.has(head) && !GENERIC_SLOT_NAMES.has(head) ? head : null;
}

function nameFromContext(ctx: SlotContext): string | null {
  const before = ctx.before;
  const b0 = (before[0] ?? '').replace(/=$/, '');
  // A flag: `--max-depth {n}`, `--width={w}` (the `=` is its own token in code).
  const flag = /^--([A-Za-z][\w-]*)$/.exec(b0) ?? (b0 === '=' ? /^--([A-Za-z][\w-]*)$/.exec(before[1] ?? '') : null);
  if (flag) return identifier(flag[1]!);
  const short = /^-([A-Za-z])$/.exec(b0);
  if (short && SHORT_FLAGS[short[1]!]) return SHORT_FLAGS[short[1]!]!;
  // A long option spelt with one dash (`-show_entries`, `-name` in find, ffmpeg, java), not a
  // bundle of short ones (`-fsSL`, `-rf`).
  const single = /^-([a-z]+_[a-z_]+|[a-z]{4,})$/.exec(b0);
  if (single) return identifier(single[1]!);
  // A key: `key: {x}`, `key={x}`, `key = "{x}"`, `key: [{x}]` (a list: the key's singular).
  let i = 0;
  let list = false;
  while (i < before.length && /^[[("'`{]$/.test(before[i]!)) {
    if (before[i] === '[') list = true;
    i++;
  }
  const k = before[i] ?? '';
  const keyed = /^([A-Za-z_][\w.-]*)[:=]$/.exec(k) ?? (/^[:=]$/.test(k) && /^["']?[A-Za-z_][\w.-]*["']?$/.test(before[i + 1] ?? '') ? [k, before[i + 1]!.replace(/["']/g, '')] : null);
  if (keyed) {
    const key = identifier(keyed[1]!.split('.').pop()!);
    if (key && !GENERIC_SLOT_NAMES.has(key)) return list ? singular(key) : key;
  }
  // The argument of a call: `MolFromSmiles({x})` → smiles, `read_csv({x})` → csv (not a verb).
  if (before[0] === '(' && /^[A-Za-z_$][\w$.]*$/.test(before[1] ?? '')) {
    const parts = splitWords(before[1]!.split('.').pop()!);
    const last = parts[parts.length - 1];
    if (parts.length > 1 && last && last.length >= 3 && !STOP_WORDS.has(last) && !CALL_VERBS.has(last)) return last;
  }
  // The command or preposition before it, past brackets (`focus on [{x}]`) and a verb's particle (`pick up {x}`).
  const words = before.filter((t) => !/^[[("'`{]$/.test(t));
  const w0 = words[0] ?? '';
  const w = /^(up|down|out|off|over|away|back)$/i.test(w0) && words[1] ? words[1] : w0;
  for (const [re, name] of WORD_BEFORE) if (re.test(w)) return name;
  // The noun before it, when it is not the command itself: `move crate {x} to shelf {y}`. Only in
  // prose and inline actions: in a command line the word before a slot is an argument of its own
  // (`pip install numpy {x}`, `-c:a aac {x}`), and labels are flags or keys.
  if (ctx.prose && (ctx.leading ?? before.length) > 1 && /^[a-z]{3,}$/.test(b0) && !/(?:ed|ing)$/.test(b0) && !STOP_WORDS.has(b0) && !CALL_VERBS.has(b0) && loadVerbLexicon().classOf(b0) === undefined) return b0;
  // The noun after it in prose: `your {x} account`, `the {x} branch`.
  if (ctx.prose && ctx.after && /^[a-z]{3,}$/.test(ctx.after) && !STOP_WORDS.has(ctx.after) && !CALL_VERBS.has(ctx.after)) return ctx.after;
  return null;
}

const CALL_VERBS = new Set(['get', 'set', 'run', 'create', 'make', 'load', 'read', 'write', 'open', 'close', 'call', 'spawn', 'exec', 'execute', 'parse', 'format', 'print', 'log', 'add', 'update', 'delete', 'remove', 'find', 'goto', 'go', 'new', 'init', 'start', 'stop', 'send', 'fetch', 'use', 'apply', 'check', 'build', 'save', 'show', 'list', 'from', 'to', 'with', 'and', 'for', 'then', 'via']);

const MEDIA_NAMES: Record<string, string> = { mp4: 'video', mkv: 'video', mov: 'video', avi: 'video', webm: 'video', mp3: 'audio', wav: 'audio', flac: 'audio', ogg: 'audio', m4a: 'audio' };

function nameFromValues(type: FieldType, present: readonly string[]): string {
  const bare = present.map((v) => v.replace(/^["'`]|["'`]$/g, ''));
  if (bare.length > 0 && bare.every((v) => URL_RE.test(v))) return 'url';
  // Most values end in a file extension (`out.mp4`, `"${f%.avi}.mp4"`): a file of that kind.
  const exts = bare.map((v) => /\.([A-Za-z0-9]{1,5})$/.exec(v)?.[1]?.toLowerCase()).filter((e): e is string => e !== undefined && !/^\d+$/.test(e));
  if (type === 'string' && bare.length > 0 && exts.length * 2 > bare.length) {
    const kinds = new Set(exts.map((e) => MEDIA_NAMES[e] ?? (EXT_TYPES[e] === 'json' ? 'json_file' : EXT_TYPES[e]) ?? 'path'));
    return kinds.size === 1 ? [...kinds][0]! : 'path';
  }
  if (bare.length > 0 && bare.every((v) => URL_RE.test(v))) return 'url';
  if (bare.length > 0 && bare.every((v) => /^[\w.+-]+@[\w-]+\.[\w.]+$/.test(v))) return 'email';
  // Four numbers of at most 255 are an IPv4 address before they are a version.
  if (bare.length > 0 && bare.every((v) => /^\d{1,3}(\.\d{1,3}){3}$/.test(v) && v.split('.').every((n) => Number(n) <= 255))) return 'host';
  if (bare.length > 0 && bare.every((v) => /^v?\d+(\.\d+){1,3}([-+][\w.]+)?$/.test(v))) return 'version';
  switch (type) {
    case 'integer':
      return 'count';
    case 'number':
      return 'number';
    case 'boolean':
      return 'flag';
    case 'image':
      return 'image';
    case 'document':
      return 'document';
    case 'table':
      return 'table';
    case 'json':
      return 'json_file';
    case 'file':
      return 'path';
    default:
      break;
  }
  if (bare.length > 0 && bare.every((v) => /^-/.test(v))) return 'options';
  if (bare.length > 0 && bare.every((v) => /^[A-Za-z_][\w-]*( [A-Za-z][\w-]*)? \d+$/.test(v))) return 'object';
  if (bare.length > 0 && bare.every((v) => /^[A-Za-z_@][\w.@/-]*$/.test(v))) return 'name';
  if (bare.some((v) => /\s/.test(v))) return 'text';
  return 'value';
}

/** snake_case of a flag or key: `max-depth` → max_depth, `numOfDays` → num_of_days. */
function identifier(raw: string): string {
  return splitWords(raw).join('_').slice(0, 40);
}

function splitWords(raw: string): string[] {
  return raw
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function singular(w: string): string {
  if (/ies$/.test(w)) return w.slice(0, -3) + 'y';
  if (/(ss|us|is)$/.test(w)) return w;
  if (/s$/.test(w)) return w.slice(0, -1);
  return w;
}

function typeOf(values: readonly string[]): FieldType {
  if (values.length === 0) return 'string';
  // Several words make a list ("pandas tabulate"), unless every value is a name with a number
  // ("laptop 1", "desk 2"): that is one object, as text environments number them.
  if (values.some((v) => /\s/.test(v.trim()) && !/^["'`]/.test(v)) && !values.every((v) => /^[A-Za-z][\w-]*( [A-Za-z][\w-]*)? \d+$/.test(v.trim()))) return 'list';
  if (values.every((v) => /^-?\d+$/.test(v))) return 'integer';
  if (values.every((v) => /^-?\d*\.\d+$|^-?\d+$/.test(v))) return 'number';
  if (values.every((v) => /^(true|false)$/i.test(v))) return 'boolean';
  if (values.every((v) => FILE_RE.test(v) && !URL_RE.test(v))) {
    const exts = new Set(values.map((v) => EXT_TYPES[(v.replace(/["']/g, '').split('.').pop() ?? '').toLowerCase()] ?? 'file'));
    return exts.size === 1 ? [...exts][0]! : 'file';
  }
  return 'string';
}
