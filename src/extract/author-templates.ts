/**
 * Templates the authors wrote themselves (issue 19 item 1). An action line with placeholders —
 * `{name}`, `<name>`, `[NAME]`, `$NAME` — is an abstraction its author already made: its constant
 * text is the template and each placeholder a slot under its own name, spelt out by
 * rules/slot-names.json (`{obj}` and `{object}` are one slot). Lines of this kind across the
 * library are grouped by their constant text (case and spacing aside); concrete lines that match
 * a group's template (`go to fridge 1`, `Action: take apple 1 from countertop 2`) are its
 * call-sites. Pure functions of the text; nothing here runs or resolves what a placeholder names.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ActionLine } from './action-lines.js';
import { PROCEDURE_KINDS, statementOf } from './statement.js';
import { escapeTemplateText, matchTemplate } from '../rewrite/templates.js';
import { packageRoot } from '../util/package-root.js';
import { validateAgainst } from '../schema/validate.js';
import { loadVerbLexicon } from '../propose/lexicon.js';

export interface AuthorTemplate {
  /** The constant text, lower case, spaces collapsed, each placeholder as `{}`: what groups the spellings. */
  readonly key: string;
  /** Constant pieces around the placeholders, as written (pieces.length = names.length + 1). */
  readonly pieces: readonly string[];
  /** Slot names of the placeholders, spelt out. */
  readonly names: readonly string[];
  /** The placeholders as written (`{recep}`, `<target_object>`). */
  readonly written: readonly string[];
}

interface SlotNameRules {
  readonly abbreviations: Readonly<Record<string, string>>;
  readonly dropPrefixes: readonly string[];
  readonly environmentVariables: readonly string[];
}

let rules: SlotNameRules | undefined;

function slotNameRules(): SlotNameRules {
  if (rules) return rules;
  const doc = JSON.parse(fs.readFileSync(path.join(packageRoot(), 'rules', 'slot-names.json'), 'utf8')) as SlotNameRules;
  const check = validateAgainst('slot-names', doc);
  if (!check.valid) throw new Error(`rules/slot-names.json is invalid: ${check.errors.join('; ')}`);
  return (rules = doc);
}

/** HTML and JSX element names: `<div>` in a line is markup, not a placeholder. */
const ELEMENTS = new Set('a abbr b body br button code details div em footer form h1 h2 h3 h4 h5 h6 head header hr html i img input kbd label li link main meta nav ol option p pre script section select small span strong style sub summary sup table tbody td template textarea th thead title tr u ul video audio svg path g rect circle'.split(' '));

/** A placeholder: `{name}` (not `${…}`, `{{…}}` or JSON), `<name>`, `[NAME]` (not a link), `$NAME`/`${NAME}`. */
const PLACEHOLDER = /(?<![$\w{])\{([A-Za-z][\w-]{0,40})\}(?!\})|<([A-Za-z][\w-]{0,40})>|\[([A-Z][A-Z0-9_-]{1,40})\](?![(\[])|\$\{([A-Z][A-Z0-9_]{1,40})\}|\$([A-Z][A-Z0-9_]{1,40})\b/g;

/** The author template of an action line, or null when it has no placeholder or is no action. */
export function authorTemplateOf(line: Pick<ActionLine, 'source' | 'shell' | 'text'>): AuthorTemplate | null {
  if (!/[{<[$]/.test(line.text)) return null;
  const text = stripActionLabel(line.text);
  const r = slotNameRules();
  const pieces: string[] = [];
  const names: string[] = [];
  const written: string[] = [];
  let last = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    const raw = m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5]!;
    if (m[2] !== undefined && (ELEMENTS.has(raw.toLowerCase()) || text.includes(`</${raw}`))) continue;
    // In a fenced block `$NAME` is the shell's (or the language's) own variable, read when the line
    // runs; only in prose and inline spans is it a placeholder for the reader to fill.
    if ((m[4] ?? m[5]) !== undefined && (line.source === 'code' || r.environmentVariables.includes(raw))) continue;
    // In program code, `{name}` inside a string is the language's own interpolation (an f-string,
    // a format string), not a placeholder of the author's.
    if (m[1] !== undefined && line.source === 'code' && !line.shell && insideQuotes(text, m.index)) continue;
    const name = canonicalSlotName(raw);
    if (name === '') continue;
    pieces.push(text.slice(last, m.index));
    names.push(name);
    written.push(m[0]);
    last = m.index + m[0].length;
  }
  if (names.length === 0) return null;
  pieces.push(text.slice(last));
  const constant = pieces.join(' ');
  // A template needs a word of its own (a command, a verb) and must start with it.
  if (!/[A-Za-z]{2}/.test(constant) || pieces[0]!.trim() === '') return null;
  // A command opens with a word, a number, a path or a sigil before a name (`2to3`, `./run.sh`,
  // `.\deploy.ps1`, `%pip`, `!pip`, `@claude`). A line that opens otherwise is part of something
  // else: a bracketed label or a bar of a format (`[SHOT N | time range]: …`), an option of a list
  // (`--out <file>`), a quoted value, a prompt (`$ npm …`), a list marker, a mark (`❌`), JSON.
  if (!/^\s*([\p{L}\p{N}]|[./~\\][\w./~\\-]|[%!@]\p{L})/u.test(pieces[0]!)) return null;
  // Two placeholders with nothing between them cannot be told apart in a concrete line.
  if (pieces.slice(1, -1).some((p) => p.trim() === '')) return null;
  // An action starts with a command or a verb; a capitalised word that is neither starts a message
  // the skill prints or expects (`Ready to implement {feature}`, `Tests passing ({n} tests)`).
  const lead = /^\s*([A-Za-z][\w-]*)/.exec(pieces[0]!)?.[1] ?? '';
  if (/^[A-Z][a-z]/.test(lead) && (!isVerb(lead) || inflected(lead))) return null;
  const filled = pieces.map((p, i) => p + (i < names.length ? 'X' : '')).join('');
  const st = statementOf({ ...line, text: filled, tokens: filled.split(/\s+/).filter(Boolean) });
  if (!PROCEDURE_KINDS.has(st.kind)) return null;
  const key = pieces.map((p) => p.replace(/\s+/g, ' ').toLowerCase()).join('{}').trim();
  return { key, pieces, names, written };
}

function insideQuotes(text: string, at: number): boolean {
  const before = text.slice(0, at);
  return ((before.match(/"/g) ?? []).length % 2 === 1) || ((before.match(/'/g) ?? []).length % 2 === 1) || ((before.match(/`/g) ?? []).length % 2 === 1);
}

/**
 * `Tests`, `Creates`, `Runs`: a third-person or plural form, which states rather than instructs
 * (`Tests passing ({n} tests)`). An imperative is the base form; `-ss`, `-us` and `-is` endings
 * (`Process`, `Focus`) are base forms too.
 */
function inflected(word: string): boolean {
  return word.length > 3 && /[^siu]s$/i.test(word);
}

function isVerb(word: string): boolean {
  return loadVerbLexicon().classOf(word) !== undefined;
}

/**
 * The slot values of a concrete line that instantiates an author template (its action label
 * aside), or null. A value that reads as a program's arguments — a flag, quotes, a pipe, a
 * redirect, a command substitution — is no value of the placeholder: `open -a "Google Chrome"` is
 * a shell command, not `open {receptacle}`; so is a flag after the value (`<orderCode> --confirm` is
 * another command than `<orderCode>`). Nor is an elided value (`reorder ... --confirm`). Nor is a value that reads as source code — a path
 * separator `::`, a brace, an assignment: the Rust import `use solana_program::{` is not
 * `use {tool}`. Nor is a value that is a placeholder itself
 * (`use [module]`, `activate OBJ`): that line is one more spelling of the template, not a call.
 * A path (`use exploit/windows/smb/…`) fills only a slot whose name says it holds one: a
 * `{tool}` of one domain is not the module path of another.
 */
export function matchConcrete(template: { template: string; slots: readonly string[] }, text: string): Record<string, string> | null {
  const values = matchTemplate(template, stripActionLabel(text));
  if (!values) return null;
  const path = (slot: string, v: string) => /[/\\]/.test(v) && !/^[A-Za-z]+(\/[A-Za-z]+)+$/.test(v) && !PATH_SLOT.test(slot);
  // A name is a noun phrase: a preposition inside the value (`use {tool}` over `use thermometer on
  // metal fork`) means the line says more than the template, so it is another action's call.
  const phrase = (slot: string, v: string) => !PATH_SLOT.test(slot) && /\s/.test(v) && v.split(/\s+/).some((w) => PREPOSITIONS.has(w.toLowerCase()) || PLACEHOLDER_VALUE.test(w));
  return Object.entries(values).some(([slot, v]) => /^-|\s--?[A-Za-z]|["'`|;<>]|\$\(|&&/.test(v) || CODE_VALUE.test(v) || PLACEHOLDER_VALUE.test(v) || ELIDED.test(v) || path(slot, v) || phrase(slot, v)) ? null : values;
}

/** Source-code punctuation no name of a thing holds: a module path `::`, a brace, an assignment. */
const CODE_VALUE = /::|[{}=]/;

const PREPOSITIONS = new Set(['on', 'in', 'into', 'onto', 'to', 'with', 'from', 'at', 'by', 'using', 'via', 'under', 'inside', 'in/on']);

/** Slots whose names say they hold a path: only they take a value with a slash. */
const PATH_SLOT = /(path|file|dir|directory|folder|url|uri|link|script|repository|module|route|endpoint)/;

/**
 * A value with an ellipsis at a word's edge (`... --confirm`, `…`, `numpy...`): the line left
 * (part of) the value out, so it states the template again. An ellipsis between two words'
 * characters (`main...feature`) is part of the value.
 */
const ELIDED = /(^|\s)(\.{3}|…)|(\.{3}|…)(\s|$)/;

/** A value that is itself a placeholder: `[module]`, `{x}`, `OBJ`, `ITEM_NAME`. */
const PLACEHOLDER_VALUE = /^(\[[^\]]*\]|\{[^}]*\}|[A-Z][A-Z_]{2,})$/;

/** `Action: go to fridge 1` → `go to fridge 1`: a label before an environment action is not part of it. */
export function stripActionLabel(text: string): string {
  return text.replace(/^\s*(action|act|command|cmd)\s*:\s*/i, '');
}

/** A placeholder's slot name: lower snake case, abbreviations spelt out, `your-` and the like dropped. */
export function canonicalSlotName(raw: string): string {
  const r = slotNameRules();
  const parts = raw
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  while (parts.length > 1 && r.dropPrefixes.includes(parts[0]!)) parts.shift();
  return parts.map((p) => r.abbreviations[p] ?? p).join('_').slice(0, 40);
}

/**
 * One template for a group of spellings of the same constant text: the first spelling's constant
 * pieces, and per placeholder the name most spellings use (ties: the one a word shorter, then the
 * first in code-unit order). Escaped into skillc's template form.
 */
export function unifySpellings(spellings: readonly AuthorTemplate[]): { template: string; slots: string[] } {
  const first = spellings[0]!;
  const names = first.names.map((_, i) => {
    const votes = new Map<string, number>();
    for (const s of spellings) votes.set(s.names[i]!, (votes.get(s.names[i]!) ?? 0) + 1);
    return [...votes].sort((a, b) => b[1] - a[1] || a[0].split('_').length - b[0].split('_').length || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))[0]![0];
  });
  // The same name twice in one template would be one slot: number the later ones by role order.
  const slots = names.map((n, i) => (names.indexOf(n) === i ? n : `${n}_${names.slice(0, i + 1).filter((x) => x === n).length}`));
  const template = first.pieces.map((p, i) => escapeTemplateText(p) + (i < slots.length ? `{${slots[i]}}` : '')).join('').trim();
  return { template, slots };
}
