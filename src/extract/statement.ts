/**
 * What kind of statement an action line is, and its head (issue 19, items 4 and 6). Templates are
 * anti-unified only across lines with the same kind and head — the same program or command, the
 * same callee, the same leading verb — so code is templated statement by statement; and a template
 * that is only an assignment, an import, a control-flow fragment, markup or a heading-like phrase
 * is not a procedure a maintainer would keep, so it never becomes one (the verifier's form gate
 * rejects such drafts from any source, the model's included).
 */
import type { ActionLine } from './action-lines.js';
import type { ActionTemplate, Contract } from '../ir/types.js';
import { loadVerbLexicon } from '../propose/lexicon.js';
import { formatInvoke } from '../rewrite/invoke.js';
import { templatePieces } from '../rewrite/templates.js';

export type StatementKind =
  /** A shell command or a program named in an inline span: `pip install x`, `go to fridge 1`. */
  | 'command'
  /** A function or method call in code: `client.create(name)`. */
  | 'call'
  /** A numbered step or inline span that starts with a word: `pick up {target}`. */
  | 'action'
  | 'assignment'
  | 'import'
  | 'control'
  | 'markup'
  | 'heading';

export interface Statement {
  readonly kind: StatementKind;
  /** What two lines must share to be one statement: the program, callee or leading word (lower case). */
  readonly head: string;
}

/** The kinds that can be a procedure's template. */
export const PROCEDURE_KINDS: ReadonlySet<StatementKind> = new Set(['command', 'call', 'action']);

const IMPORT = /^(import\s|from\s+[\w.@/'"-]+\s+import\b|(const|let|var)\s+[\w{}\s,]+=\s*require\s*\(|require\s*\(|#include\b|using\s+[\w.]+;|use\s+[\w:]+;|library\s*\()/;
const CONTROL = /^(if|elif|else|for|foreach|while|until|do|done|fi|then|esac|case|switch|return|yield|break|continue|def|class|function|func|fn|try|except|catch|finally|with|end|async\s+def|async\s+function|export\s+(default\s+)?(function|class|async)|public|private|protected|static|interface|type|struct|enum|raise|throw|pass|}|\)|\])\b/;
const DECLARATION = /^(const|let|var|val|my|local|export|declare|typeset|readonly)\s+[\w$[\]{},\s]+(=|$)/;
/** `x = …`, `obj.attr = …`, `a, b = …`, `x += …` (not `==`); and `KEY=value` in shell. */
const ASSIGNMENT = /^[\w$.[\]'",\s*]+?\s*(=(?!=)|\+=|-=|\*=|\/=|:=|\?\?=|\|\|=)/;
/** `key: value` config lines (YAML, JSON members, headers), `- key: value`. */
const KEY_VALUE = /^(-\s+)?["']?[\w.$-]+["']?\s*:(\s|$)/;
const MARKUP = /^(<\/?[A-Za-z][\w.:-]*|[{}[\]();,]+$|\/\/|#|<!--)/;
/** A line whose second token is an arrow: a diagram or a mapping (`RED → write a failing test`, `A -> B`), not a statement. */
const ARROW_LINE = /^\S+\s*(→|->|=>|⇒|➜|⟶)\s/;
export function statementOf(line: Pick<ActionLine, 'source' | 'shell' | 'text' | 'tokens'>): Statement {
  const text = line.text.trim();
  const first = (line.tokens[0] ?? '').toLowerCase();
  if (IMPORT.test(text)) return { kind: 'import', head: first };
  if (line.source === 'code' && !line.shell) {
    if (CONTROL.test(text)) return { kind: 'control', head: first };
    if (DECLARATION.test(text) || ASSIGNMENT.test(text)) return { kind: 'assignment', head: first };
    if (KEY_VALUE.test(text)) return { kind: 'assignment', head: first };
    if (MARKUP.test(text) || ARROW_LINE.test(text)) return { kind: 'markup', head: first };
    const call = /^(await\s+|new\s+)?([A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*)\s*\(/.exec(text);
    if (call) return { kind: 'call', head: call[2]!.replace(/\s+/g, '').toLowerCase() };
    // A line of a fenced block in no shell language that still reads as a command (`text`
    // blocks of environment actions, unlabelled blocks of commands).
    // (A line that ends in an author's placeholder, `--project {{project}}`, ends in no block brace.)
    if (/^(\.{0,2}\/|~\/)?[A-Za-z.][\w.\/-]*(\s|$)/.test(text) && !/[;{}]$/.test(text.replace(/\{\{?[\w.-]+\}\}?$/, 'x'))) return { kind: 'command', head: first };
    return { kind: 'markup', head: first };
  }
  if (line.source === 'code' || line.source === 'inline') {
    if (ARROW_LINE.test(text)) return { kind: 'markup', head: first };
    if (/^(export\s+)?[A-Za-z_][A-Za-z0-9_]*=/.test(text)) return { kind: 'assignment', head: first };
    if ((line.source === 'code' || /^(if|for|while|until|case|do|done|then|fi|else|elif|esac)\b/.test(text)) && CONTROL.test(text)) return { kind: 'control', head: first };
    if (line.source === 'inline' && (DECLARATION.test(text) || (ASSIGNMENT.test(text) && !/^[\w.-]+\s+-/.test(text)) || KEY_VALUE.test(text))) return { kind: 'assignment', head: first };
    if (MARKUP.test(text) && !/^\/[\w-]/.test(text)) return { kind: 'markup', head: first };
    return { kind: 'command', head: first };
  }
  // A numbered step.
  if (headingLike(text)) return { kind: 'heading', head: first };
  if (/^[A-Za-z_][\w\s.]{0,40}\s=\s/.test(text)) return { kind: 'assignment', head: first };
  return { kind: 'action', head: first };
}

/**
 * A phrase that names rather than acts: it ends with a colon, or every word of it is capitalised
 * ("Security Audit", "Component Diagram:").
 */
export function headingLike(text: string): boolean {
  const t = text.replace(/[*_`]/g, '').trim();
  if (/:$/.test(t)) return true;
  const ws = t.split(/\s+/).filter((w) => /^[A-Za-z]/.test(w));
  return ws.length >= 1 && ws.length <= 6 && ws.every((w) => /^[A-Z]/.test(w)) && !/[.!?]$/.test(t);
}

/**
 * Why a template (its text with slots as `{name}`) is not a procedure a maintainer would keep, or
 * null. Read on the template's constant text with its slots filled by placeholders, so the same
 * judgement applies to a deterministic draft and to a model's.
 */
export function unkeptForm(template: string, source: ActionLine['source']): string | null {
  const { text, tokens } = shapeOf({ template });
  const st = templateStatement(source, text, tokens);
  if (tokens.length === 1 && filePath(tokens[0]!)) return 'it is only a file path, not an action';
  if (POINTS_ELSEWHERE.test(text)) return 'it points at text around it ("the command above"), so it cannot stand alone';
  switch (st.kind) {
    case 'import':
      return 'it is only an import line';
    case 'assignment':
      return 'it is only a variable assignment';
    case 'control':
      return 'it is a control-flow fragment (if, for, return, def …), not a statement of its own';
    case 'markup':
      return 'it is markup or punctuation, not an action';
    case 'heading':
      return 'it is a heading-like phrase, not an action';
    default:
      return null;
  }
}

/**
 * A step that refers to its skill's surrounding text: "install the skill using the command above",
 * "run the script shown below". Lifted into a contract it points at nothing.
 */
const POINTS_ELSEWHERE = /\b(?:(?:command|step|code|example|snippet|block|section|script|instructions?)\s+(?:above|below)|(?:shown|listed|described|given)\s+(?:above|below))\b/i;

/** Extensions of files that are read, not run: a line that is one such path names a file. */
const DOCUMENT = /\.(md|mdx|txt|json|jsonl|ya?ml|toml|ini|cfg|conf|csv|tsv|html?|xml|lock|log|pdf|png|jpe?g|gif|svg)$/i;

function filePath(token: string): boolean {
  if (/^(\.{1,2}\/|\/|~\/)/.test(token)) return false;
  return DOCUMENT.test(token) || (/\//.test(token) && !/\.(sh|bash|py|js|mjs|cjs|ts|rb|pl|ps1|bat|cmd|exe)$/i.test(token) && !/^[a-z][\w.-]*\/[\w.-]+@/.test(token));
}

/**
 * A template read by the shared parser (rewrite/templates.ts): its text with slots as `X` and
 * escaped braces as braces, its tokens, and the words of its constant part. Without a slot list
 * (a template judged on its own), every `{name}` outside doubled braces is a slot.
 */
function shapeOf(t: { readonly template: string; readonly slots?: readonly string[] }): { text: string; tokens: string[]; constant: string[] } {
  const slots = t.slots ?? [...t.template.matchAll(/\{([A-Za-z_]\w*)\}/g)].map((m) => m[1]!);
  const pieces = templatePieces({ template: t.template, slots: [...slots] });
  const text = pieces.map((p) => (p.kind === 'const' ? p.text : 'X')).join('');
  const constant = pieces.flatMap((p) => (p.kind === 'const' ? p.text.split(/\s+/) : [])).filter((w) => /[A-Za-z0-9]/.test(w));
  return { text, tokens: text.split(/\s+/).filter(Boolean), constant };
}

/**
 * The statement a template is. Templates do not record whether their block was a shell one: a
 * code line without brackets or semicolons that does not open with an assignment reads as a command.
 */
function templateStatement(source: ActionLine['source'], text: string, tokens: readonly string[]): Statement {
  return statementOf({ source, shell: source === 'code' && !/[(){};]/.test(text) && !/^[\w.$[\]]+\s*=/.test(text), text, tokens });
}

/**
 * Why a contract as a whole is not a procedure a maintainer would keep, or null: it is one command
 * of one program (every template starts with the same program and shows a sign of one: a flag, a
 * path, an assignment, a pipe, a program name that is not a word, a code line whose first word is
 * no verb of the lexicon), and either its constant part is the program and at most one more word
 * (`git checkout {branch}`, `kill -9 {pid}`), or the one invoke written for most of the units it was
 * drawn from is no shorter than their lines of it (`pip install torch numpy {package}`). Such a command
 * line is already the program's interface: a contract over it names it again and never pays. A
 * longer command keeps its constant flags in the contract and is kept. An action of the skill's
 * own domain (`go to {receptacle}`, `take {object} from {receptacle}`) shows no sign of a program
 * and is kept. Lengths are compared in characters, a stand-in for tokens that needs no tokenizer
 * in the verifier; the rewrite plan counts tokens before any call-site is replaced.
 */
export function oneProgramCommand(contract: Pick<Contract, 'id' | 'scope' | 'templates'>): string | null {
  const ts = contract.templates;
  if (ts.length === 0) return null;
  const shapes = ts.map((t) => ({ t, ...shapeOf(t) }));
  const commands = shapes.every((x) => templateStatement(x.t.source, x.text, x.tokens).kind === 'command');
  if (!commands || new Set(shapes.map((x) => (x.constant[0] ?? '').toLowerCase())).size !== 1) return null;
  if (!shapes.some((x) => programSigns(x.t, x.tokens))) return null;
  const program = shapes[0]!.tokens[0];
  const short = shapes.every((x) => x.constant.length <= 2) && new Set(shapes.map((x) => x.constant.join(' ').toLowerCase())).size === 1;
  if (short) return `its ${ts.length === 1 ? 'template is' : 'templates are'} one short command of \`${program}\` (constant part \`${shapes[0]!.constant.join(' ')}\`), already that program's interface: an invoke would be no shorter than the line and abstracts nothing`;
  // Per source unit: its lines of the templates against the one invoke that would stand for them.
  const byUnit = new Map<string, { line: number; bindings: Record<string, string> }>();
  for (const t of ts) {
    for (const i of t.instances) {
      const u = byUnit.get(i.unit) ?? { line: 0, bindings: {} };
      u.line += i.text.trim().length + 1;
      Object.assign(u.bindings, i.bindings);
      byUnit.set(i.unit, u);
    }
  }
  const slots = [...new Set(ts.flatMap((t) => t.slots))];
  const instances = [...byUnit.values()].map((u) => ({ line: u.line - 1, invoke: formatInvoke(contract.id || 'x'.repeat(20), u.bindings, slots).length + 2 }));
  if (instances.length === 0) return null;
  const longer = instances.filter((i) => i.invoke >= i.line).length;
  if (2 * longer < instances.length) return null;
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!;
  return `it is one command of \`${program}\` whose invoke is no shorter than the line it stands for in ${longer} of its ${instances.length} source units (median ${median(instances.map((i) => i.invoke))} characters against ${median(instances.map((i) => i.line))}): the command line is already the program's interface and the contract would never pay`;
}

/** A comment's start in a line of code: `//` or `#` with a space or the line's start before it and a space after (`#{number}` is an issue number). */
const COMMENT_START = /(^|\s)(\/\/|#)\s/;

/**
 * Why a contract's parameters are not the procedure's, or null: every slot of its code and command
 * templates sits in a trailing comment (`int Add(int a, int b); // {text}`, `atris plan # break
 * down {name} task`). What varies between the members is a remark (often the same remark in
 * another language), not a value the code takes, and the contract would be a code sample with its
 * comment made a parameter.
 */
export function commentSlots(contract: Pick<Contract, 'templates'>): string | null {
  let slots = 0;
  for (const t of contract.templates) {
    if (t.source === 'step') continue;
    let inComment = false;
    for (const p of templatePieces(t)) {
      if (p.kind === 'const') inComment ||= COMMENT_START.test(p.text);
      else if (!inComment) return null;
      else slots++;
    }
  }
  return slots === 0 ? null : 'its parameters are only in code comments: what varies between its sources is a remark, not a value the code takes';
}

/**
 * Why a command template's slot stands for a subcommand, or null: the slot follows the program's
 * own words (no flag before it) and every value is a different operation, a verb-led kebab word
 * (`az boards iteration team {name} --team …` over `set-default-iteration` and
 * `set-backlog-iteration`). The members then run different operations of one program, and a
 * contract would hide that behind a parameter.
 */
export function subcommandSlot(contract: Pick<Contract, 'templates'>): string | null {
  const lexicon = loadVerbLexicon();
  for (const t of contract.templates) {
    if (t.source !== 'code') continue;
    let before = '';
    for (const p of templatePieces(t)) {
      if (p.kind === 'const') {
        before += p.text;
        continue;
      }
      // Only a program and its words before the slot: a flag or a slot before it makes it an argument.
      if (!/^[A-Za-z][\w.-]*( [a-z][\w-]*)* $/.test(before)) break;
      const values = [...new Set(t.instances.map((i) => i.bindings[p.name] ?? ''))];
      if (values.length >= 2 && values.every((v) => /^[a-z]+(-[a-z0-9]+)+$/.test(v) && lexicon.classOf(v.split('-')[0]!) !== undefined)) {
        return `its slot {${p.name}} takes the place of a subcommand of \`${before.trim()}\` (${values.slice(0, 3).map((v) => `\`${v}\``).join(', ')}): the members run different operations, which one contract would hide behind a parameter`;
      }
      break;
    }
  }
  return null;
}

function programSigns(t: Pick<ActionTemplate, 'source'>, tokens: readonly string[]): boolean {
  const head = tokens[0] ?? '';
  if (!/^[a-z]+$/.test(head)) return true;
  if (t.source === 'code' && loadVerbLexicon().classOf(head) === undefined) return true;
  // A flag, a path, an assignment, a pipe or redirect, a file name; not words offered as
  // alternatives (`in/on`, `and/or`).
  const alternatives = (w: string) => /^[A-Za-z]+(\/[A-Za-z]+)+$/.test(w);
  return tokens.some((w) => /^--?[A-Za-z0-9]/.test(w) || /[=|>]/.test(w) || (/[/\\]/.test(w) && !alternatives(w)) || /^[\w-]+\.[a-z]{1,4}$/.test(w));
}
