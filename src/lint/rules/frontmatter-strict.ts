/**
 * frontmatter-strict: no YAML that strict parsers (the reference validator) reject.
 */
import type { FieldEntry } from '../frontmatter-view.js';
import type { LintRule, RuleContext, TextEdit } from '../types.js';
import { NO_OPTIONS, columnOf, eolOf, trimLineBreaks } from './helpers.js';
import { yamlStartOf } from '../../text/frontmatter.js';

export const frontmatterStrict: LintRule = {
  meta: {
    id: 'frontmatter-strict',
    category: 'spec',
    summary: 'the frontmatter avoids YAML that strict parsers reject',
    doc: 'The reference validator reads frontmatter with a strict YAML subset: flow collections (`tags: [a, b]`, `{k: v}`), anchors, aliases and explicit tags are errors there, and it ends the frontmatter at the first `---` anywhere in the file, even inside a value. A byte order mark before the opening `---` hides the frontmatter from it. Such a skill is valid YAML to most agents but invalid to that validator, so this is a warning by default and an error with `--strict`. The fix rewrites a flow list of plain items as a block list.',
    defaultLevel: 'warn',
    strictLevel: 'error',
    fixable: true,
    ...NO_OPTIONS,
  },
  check(ctx) {
    const { subject } = ctx;
    if (subject.hasByteOrderMark) ctx.report({ offset: 0, message: 'SKILL.md starts with a byte order mark: strict readers do not see the --- that opens the frontmatter' });
    const fm = subject.frontmatter;
    if (fm.raw === '') return;
    const yamlStart = yamlStartOf(fm.raw);
    const dashes = fm.yaml.indexOf('---');
    if (dashes >= 0) {
      ctx.report({ offset: yamlStart + dashes, endOffset: yamlStart + dashes + 3, message: "'---' inside the frontmatter: the reference validator ends the frontmatter at the first '---' anywhere, so it reads only the fields above this" });
    }
    const fields = subject.fields;
    if (!fields) return;
    const walk = (entries: readonly FieldEntry[], path: string) => {
      for (const e of entries) {
        const where = path ? `${path}.${e.key}` : e.key;
        if (e.flow) {
          reportFlow(ctx, e, where);
          continue;
        }
        walk(e.children, where);
      }
    };
    walk(fields.entries, '');
    for (const m of fields.anchorsAndTags) {
      ctx.report({ offset: m.start, endOffset: m.end, message: `YAML ${m.what}: strict YAML parsers (the reference validator) reject anchors, aliases and tags` });
    }
  },
};

function reportFlow(ctx: RuleContext, e: FieldEntry, where: string): void {
  const what = e.kind === 'seq' ? 'flow-style list […]' : 'flow-style mapping {…}';
  const fix = e.kind === 'seq' && /^\d+$/.test(e.key) === false ? blockListFix(ctx, e) : null;
  ctx.report({
    offset: e.valueStart,
    endOffset: e.valueEnd,
    message: `${where} is a ${what}: valid YAML, but strict YAML parsers (the reference validator) reject it; use block style`,
    ...(fix ? { fix } : {}),
  });
}

/**
 * `key: [a, b]` → `key:` then `  - a`, `  - b` at the key's indentation plus two, when every item is
 * a plain or quoted scalar or an alias. Intended change to the data: none (the fix declares no fixChanges, so
 * the engine keeps it only when the data stays deeply equal). Anchors and tags stay with what they
 * mark: `key: &t [&x a, !!str 1]` → `key: &t` then `- &x a`, `- !!str 1` (the YAML parser's node
 * ranges leave them out, so they are taken from the text before each node).
 */
function blockListFix(ctx: RuleContext, e: FieldEntry): TextEdit[] | null {
  const text = ctx.subject.text;
  if (e.children.length === 0 || e.children.some((c) => c.kind !== 'scalar' && c.kind !== 'alias')) return null;
  const source = text.slice(e.valueStart, e.valueEnd);
  if (source.includes('#')) return null;
  const head = listHead(text.slice(e.keyEnd, e.valueStart));
  if (head === null) return null;
  // Each item with its own anchor or tag: from after the previous item (or the `[`) to its end.
  const items = e.children.map((c, i) => {
    const from = i === 0 ? e.valueStart + 1 : e.children[i - 1]!.valueEnd;
    return text.slice(from, c.valueEnd).trim().replace(/^,/, '').trim();
  });
  if (items.some((s) => s === '' || /[\r\n]/.test(s))) return null;
  const keyLineStart = ctx.subject.lines.lineStart(e.keyStart);
  // The key must start its line (after indentation): then the list can go below it.
  if (text.slice(keyLineStart, e.keyStart).trim() !== '') return null;
  const indent = ' '.repeat(columnOf(ctx.subject, e.keyStart) + 2);
  const eol = eolOf(ctx.subject);
  const end = trimLineBreaks(text, e.keyEnd, e.valueEnd);
  return [{ start: e.keyEnd, end, text: `:${head}${items.map((s) => `${eol}${indent}- ${s}`).join('')}` }];
}

/**
 * What stays on the key's line when a flow list goes below it: the list's anchor and tag, then a
 * comment that stood between the key and the `[` (at most one). `between` is the text from the
 * key's end to the `[`; null when it holds anything else.
 */
function listHead(between: string): string | null {
  const colon = /^[ \t]*:/.exec(between);
  if (!colon) return null;
  const props: string[] = [];
  const comments: string[] = [];
  for (const line of between.slice(colon[0].length).split(/\r\n|\r|\n/)) {
    // A comment starts at a # after a blank (a # inside a tag such as !a#b is not one).
    const hash = /(?:^|[ \t])(#.*)$/.exec(line);
    if (hash) comments.push(hash[1]!.trimEnd());
    const tokens = (hash ? line.slice(0, hash.index) : line).split(/[ \t]+/).filter((t) => t !== '');
    if (tokens.some((t) => !/^[&!]/.test(t))) return null;
    props.push(...tokens);
  }
  if (comments.length > 1) return null;
  return [...props, ...comments].map((t) => ` ${t}`).join('');
}
