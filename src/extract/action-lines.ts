/**
 * The concrete action lines of a unit (SPEC §2, pass 3): lines of fenced code (prompts stripped,
 * backslash continuations joined, comments dropped), inline code spans that read as commands, and
 * numbered steps. Each carries its line number so templates can point back at their evidence.
 */
import type { Unit } from '../ir/types.js';
import { collapse } from '../text/collapse.js';

export interface ActionLine {
  readonly unit: string;
  readonly source: 'code' | 'inline' | 'step';
  /** For code lines: whether the block is a shell command block (bash, sh, console, …). */
  readonly shell: boolean;
  readonly text: string;
  readonly tokens: readonly string[];
  /** Whether each token had whitespace before it in the text (templates keep the spacing). */
  readonly spaced: readonly boolean[];
  readonly line: number;
}

const MAX_LINES_PER_BLOCK = 40;
export const SHELL_LANGS: ReadonlySet<string> = new Set(['bash', 'sh', 'shell', 'zsh', 'console', 'shell-session', 'shellsession', 'terminal', 'cmd', 'bat', 'batch', 'powershell', 'pwsh', 'ps1', 'fish']);
const MAX_LINE_CHARS = 240;

export function actionLines(unit: Unit): ActionLine[] {
  return linesOf(unit, (source, shell, text, line) => {
    const { tokens, spaced } = source === 'code' && !shell ? tokenizeCode(text) : tokenizeLine(text);
    return { unit: unit.id, source, shell, text, tokens, spaced, line };
  });
}

/** An action line without its tokens: what finding author templates reads. */
export type ActionLineText = Omit<ActionLine, 'tokens' | 'spaced'>;

/** The unit's action lines, not tokenised (tokenising is most of the cost of actionLines). */
export function actionLineTexts(unit: Unit): ActionLineText[] {
  return linesOf(unit, (source, shell, text, line) => ({ unit: unit.id, source, shell, text, line }));
}

/** The unit's action lines, each made by `make` from its source, shell flag, collapsed text and line. */
function linesOf<T>(unit: Unit, make: (source: ActionLine['source'], shell: boolean, text: string, line: number) => T): T[] {
  const out: T[] = [];
  const push = (source: ActionLine['source'], text: string, line: number, shell = false): boolean => {
    const t = collapse(text);
    // Markup and punctuation lines (`</plugin>`, `});`) carry no action. (Without a '<' there is no tag to take out.)
    if (t.length < 2 || t.length > MAX_LINE_CHARS || !/[A-Za-z0-9_]{2}/.test(t.includes('<') ? t.replace(/<\/?[\w.-]+>/g, '') : t)) return false;
    out.push(make(source, shell, t, line));
    return true;
  };
  // Where blocks holding a command (a shell or unlabelled block with a line of words and arguments
  // that is read as an action, not a lone URL, a name or a JSON/YAML value) start: a numbered step
  // around one is stated by it (below).
  const commandBlocks: number[] = [];
  for (const block of unit.codeBlocks) {
    const lang = (block.lang ?? '').toLowerCase();
    const shell = SHELL_LANGS.has(lang);
    const commandLang = shell || lang === '';
    const lines = block.value.split('\n');
    let pending = '';
    let pendingLine = 0;
    let kept = 0;
    for (let i = 0; i < lines.length && kept < MAX_LINES_PER_BLOCK; i++) {
      const raw = lines[i]!;
      // Every prompt holds a '$' or a '>': a line with neither has none to strip.
      let l = (raw.includes('$') || raw.includes('>') ? raw.replace(/^\s*(\$|>|PS>|#>)\s+/, '') : raw).trimEnd();
      if (!pending && /^\s*(#|\/\/|--)/.test(l)) continue;
      if (!pending) pendingLine = block.line + 1 + i;
      if (l.endsWith('\\')) {
        pending += l.slice(0, -1) + ' ';
        continue;
      }
      l = pending + l;
      pending = '';
      if (l.trim()) {
        const pushed = push('code', l, pendingLine, shell);
        if (pushed && commandLang && /\S\s+\S/.test(l) && commandBlocks[commandBlocks.length - 1] !== block.start) commandBlocks.push(block.start);
        kept++;
      }
    }
    if (pending.trim()) push('code', pending, pendingLine, shell);
  }
  let rows: string[] | undefined;
  // Inline spans that read as commands (words and arguments), by offset.
  const commandSpans: number[] = [];
  for (const c of unit.inlineCode) {
    if (!(/\s/.test(c.value.trim()) || /^[A-Z][A-Z0-9_]{3,}$/.test(c.value))) continue;
    // A cell of a table that reads as a message (an Error column's `Token expired`, `401
    // Unauthorized`) labels a row; the row's command is in another cell.
    if (messageLike(c.value.trim()) && /^\s*\|/.test((rows ??= unit.text.split('\n'))[c.line - unit.line] ?? '')) continue;
    // `Never run `x --confirm` unless …`, `use `a` instead of `b``: the span is what not to do.
    if (forbidden(clauseBefore(unit, c.start))) continue;
    if (push('inline', c.value, c.line) && commandLike(c.value.trim())) commandSpans.push(c.start);
  }
  for (const b of unit.bullets) {
    if (!b.ordered || forbiddingStep(b.text)) continue;
    // A step that holds a command, in a block or a span, is stated by it, an action line of its own:
    // the step's words around it title it (`Convert DOCX to PDF:`) or say what it made (`This
    // creates files like page-1.jpg`), and as a second action they would make one command two
    // steps of a procedure. A step around a value (a URL in a block) is the action itself.
    const within = (at: number) => at >= b.start && at < b.end;
    if (b.end > b.start && (commandBlocks.some(within) || commandSpans.some(within))) continue;
    push('step', b.text, b.line);
  }
  return out;
}

/**
 * Words that forbid what follows them in a clause (`Never run`, `Do not use`, `instead of`): a
 * command under them is what not to do, not an action of the procedure. (A bare `not` is left out:
 * `check that it does not fail` states what to verify.)
 */
const NEGATION = /(^|[^\p{L}])(never|don['’]?t|do not|must not|mustn['’]t|should not|shouldn['’]t|avoid|instead of|rather than)(?![\p{L}])|[❌✗✘🚫]/giu;

/**
 * A reminder after a negation asks for the action: `Don't forget to run`, `Do not hesitate to`,
 * `Never fail to`, `Never neglect to`. After `skip`, `miss`, `omit` or `neglect` with an object, a
 * reminder too (`Don't skip the tests`), unless the clause names a means (`Never skip hooks with`,
 * `Don't skip the check by running`): then the command is the way of leaving out, and forbidden.
 * When in doubt the command is dropped: a procedure that lacks a step is better than one that
 * takes a forbidden step.
 */
const REMINDER = /^\s+(?:(forget|hesitate|worry)|(fail|neglect)(?=\s+to\s)|(skip|miss|omit|neglect))(?![\p{L}])/iu;
const MEANS = /(^|[^\p{L}])(with|by|using|via|through)(?![\p{L}])/iu;

/** Whether the text after a negation makes it a reminder rather than a prohibition. */
function reminds(after: string): boolean {
  const r = REMINDER.exec(after);
  if (r === null) return false;
  if (r[1] !== undefined || r[2] !== undefined) return true;
  return !MEANS.test(after.slice(r[0].length));
}

/**
 * A negation that forbids an action outright (`do not run`, `never use`): a clause holding one
 * forbids the command a colon after it introduces, and an aside holding one is not left out.
 */
const IMPERATIVE_NEGATION = /(^|[^\p{L}])(?<!(?:^|[^\p{L}])(?:you|we|they|i|it|he|she|one|users?|people)\s+)(never|don['’]?t|do not|must not|mustn['’]t|should not|shouldn['’]t)\s+(ever\s+)?(run|use|execute|call|invoke|type|enter|install|push|delete|remove|commit|deploy|start|apply|do|try)(?![\p{L}])/iu;

/**
 * An aside that forbids the command it comes before: its forbidding verb takes no object of its
 * own (`(do not run in production)`, `(never run this twice)`); one with an object forbids that
 * (`(don't use sudo)`, `(do not run them in parallel)`).
 */
const ASIDE_ON_COMMAND = new RegExp(`${IMPERATIVE_NEGATION.source}\\s*(\\)|(in|on|at|for|during|without|unless|as|here|there|this|it|locally|directly|manually|twice|again|outside|inside)(?![\\p{L}]))`, 'iu');

/** A numbered step that opens by forbidding (`Never force-push to main`, `❌ Don't …`). */
const FORBIDDING_STEP = /^[^\p{L}\p{N}]*(never|don['’]?t|do not|must not|should not|avoid)(?![\p{L}])|^[^\p{L}\p{N}]*[❌✗✘🚫]/iu;

function forbiddingStep(text: string): boolean {
  const m = FORBIDDING_STEP.exec(text);
  return m !== null && !reminds(text.slice(m.index + m[0].length));
}

function forbidden(clause: string): boolean {
  for (const m of clause.matchAll(NEGATION)) if (!reminds(clause.slice(m.index + m[0].length))) return true;
  return false;
}

/** A clause that states a condition or a purpose: it opens with a subordinator. */
const CONDITION = /^[^\p{L}]*(if|to|when|whenever|unless|once|before|after|in case|so that|for|where)(?![\p{L}])/iu;

/**
 * The text of the clause before `at` (a file offset in the unit): back to the last sentence or
 * clause mark that words follow, or the line start. A mark with no word after it (`Never use
 * these — `a`, `b``) introduces what the clause names, so the clause goes on before it, unless it
 * is a colon after a condition or a purpose. An aside between two long dashes (`Do not — ever —
 * run`), or in parentheses unless it forbids the command, is left out. Inline code is masked: an
 * earlier command (`docker run --pull never img`) says nothing about the span at `at`.
 */
function clauseBefore(unit: Unit, at: number): string {
  const rel = at - unit.start;
  if (rel <= 0 || rel > unit.text.length) return '';
  const lineStart = unit.text.lastIndexOf('\n', rel - 1) + 1;
  const before = unit.text
    .slice(lineStart, rel)
    .replace(/(`+)[^`]*?\1/g, ' · ')
    .replace(/\s?[—–]\s?[^—–.;:!?]*?\s?[—–]/g, ' ')
    .replace(/\([^()]*\)/g, (aside) => (ASIDE_ON_COMMAND.test(aside) ? aside : ' '));
  let cut = 0;
  for (const m of before.matchAll(/[.;:,!?](?=\s)|\s[-–—]+\s|—/g)) {
    const end = m.index + m[0].length;
    // A colon after a condition or a purpose (`If you do not have Docker:`, `To avoid errors:`)
    // introduces what to do in that case.
    const clause = before.slice(cut, m.index);
    const introduces = m[0] === ':' && CONDITION.test(clause) && !IMPERATIVE_NEGATION.test(clause);
    if (introduces || /\p{L}/u.test(before.slice(end))) cut = end;
  }
  return before.slice(cut);
}

/** A PowerShell cmdlet name, by its verb (the common approved verbs), then an argument. */
const CMDLET = /^(Get|Set|New|Remove|Add|Install|Uninstall|Update|Import|Export|Start|Stop|Restart|Invoke|Test|Enable|Disable|Clear|Copy|Move|Rename|Register|Unregister|Select|Write|Read|Out|Format|ConvertTo|ConvertFrom|Connect|Disconnect|Resolve|Expand|Compress|Measure|Wait|Find|Save|Publish|Send|Receive|Mount|Dismount|Resume|Suspend|Reset|Grant|Revoke|Unblock|Join|Split|Sort|Compare|Show|Enter|Exit|Initialize|Repair|Restore|Backup|Sync|Edit|Search|Use)-[A-Z][A-Za-z]+\s+\S/;

/**
 * Whether an inline span reads as a command: a program word (a lower-case name, a path, `$EDITOR`,
 * a sigil such as `%pip`, `!pip`, a PowerShell cmdlet, or a capitalised name with an option, a
 * path or a file after it), after any `NAME=value` settings, then arguments; and not a message or
 * a label. A value with a space (`Mail Sync`, `⌘ K`) is not one, so a step that names it is still
 * an action of its own.
 */
function commandLike(text: string): boolean {
  if (messageLike(text)) return false;
  // Settings before a program (`NODE_ENV=production npm run build`), a sigil (`$EDITOR`, `%pip`),
  // a lower-case program or a path: a command.
  if (/^(\w+=\S*\s+)+\S/.test(text) || /^([%!$]|[a-z0-9_.~\/\\])[\w.\/\\:@+-]*\s+\S/.test(text)) return true;
  // A PowerShell cmdlet (`Set-ExecutionPolicy RemoteSigned`) is a program whatever follows.
  if (CMDLET.test(text)) return true;
  // Another capitalised word is a program only with an argument that a command has: an option, a
  // path or a file (`Rscript analysis.R`, `Install-Module X -Scope CurrentUser`, `POST /search`);
  // `VS Code`, `Xcode 15.2`, `File > Save As` are names.
  return /^[A-Z][\w.-]*\s/.test(text) && /\s(--?[A-Za-z]|\S*[A-Za-z]\S*[\/\\]|[\/\\]\S*[A-Za-z]|\S+\.[A-Za-z]{1,4}(?![\w.]))/.test(text);
}

/**
 * Whether an inline span reads as a message or a label: it starts with a number or a capitalised
 * word (not a run of capitals like `SELECT`) and holds only words (no flag, path, file name,
 * option or operator, which a command written with a capital would have: `Rscript run.R`).
 */
export function messageLike(text: string): boolean {
  return /^(\d|[A-Z][a-z])/.test(text) && /^[\p{L}\p{N}][\p{L}\p{N}\p{M} ,'’()!?]*$/u.test(text);
}

export interface Tokens {
  readonly tokens: string[];
  readonly spaced: boolean[];
}

/** Whitespace tokens for commands and prose; a quoted argument is one token. */
export function tokenizeLine(text: string): Tokens {
  return tokenize(text, /"(?:[^"\\]|\\.)*"|'[^']*'|`[^`]*`|\S+/g);
}

/**
 * Code tokens: strings, dotted names, numbers and single punctuation marks. A name is letters of
 * any script (`geçirmek`, `取得特定市場` are one token each, not a letter and a fragment).
 */
export function tokenizeCode(text: string): Tokens {
  return tokenize(text, /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`|[\p{L}_$][\p{L}\p{N}\p{M}_$]*(?:\.[\p{L}_$][\p{L}\p{N}\p{M}_$]*)*|\d+(?:\.\d+)?|\S/gu);
}

function tokenize(text: string, re: RegExp): Tokens {
  const tokens: string[] = [];
  const spaced: boolean[] = [];
  let end = 0;
  for (const m of text.matchAll(re)) {
    tokens.push(m[0]);
    spaced.push(m.index > end);
    end = m.index + m[0].length;
  }
  return { tokens, spaced };
}
