/**
 * wf: explicit workflow evidence (SPEC §5). A skill links to another skill's folder or SKILL.md, or
 * names another skill as code (`other-skill`, `plugin:other-skill`) or as "the other-skill skill".
 * Bare words are not enough: names such as "pdf" occur in prose everywhere. A name shared by several
 * skills resolves to the one nearest in the folder tree (longest common path prefix, then path).
 * Direction: the named skill comes next (A → B) unless the line says it comes first ("before",
 * "first", "requires", "prerequisite", "after using", "from" …), then B → A. When the mentions
 * between two skills point both ways, the direction more of them give is kept (both on a tie).
 */
import path from 'node:path';
import type { Parent } from '../../ir/types.js';
import type { EdgeEvidence, GraphEdge } from '../types.js';
import type { EdgeRule } from './edge-rule.js';

const MAX_EVIDENCE = 5;
// "from the X skill" (a function or output taken from it) also puts X first.
const PRIOR = /\b(before|first|prerequisites?|requires?|required|depends? on|after (using|running)|previous(ly)?|earlier|beforehand|from)\b/i;

export const wfRule: EdgeRule = {
  type: 'wf',
  describe: 'the source links to the target or names it as a skill (direction: next step; reversed when the line says the named skill comes first)',
  build(ctx) {
    const byFolder = new Map(ctx.parents.map((p, i) => [p.path, i]));
    const byName = new Map<string, number[]>();
    ctx.parents.forEach((p, i) => {
      for (const n of namesOf(p)) {
        let list = byName.get(n);
        if (!list) byName.set(n, (list = []));
        if (!list.includes(i)) list.push(i);
      }
    });
    const edges = new Map<string, { from: number; to: number; count: number; evidence: EdgeEvidence[] }>();
    const add = (a: number, b: number, kind: 'link' | 'mention', detail: string, file: string, line: number, lineText: string) => {
      if (a === b) return;
      const [from, to] = PRIOR.test(lineText) ? [b, a] : [a, b];
      const key = `${from} ${to}`;
      let e = edges.get(key);
      if (!e) edges.set(key, (e = { from, to, count: 0, evidence: [] }));
      e.count++;
      // Keep the first few places as evidence; the weight counts them all.
      if (e.evidence.length < MAX_EVIDENCE) e.evidence.push({ kind, detail, file, line });
    };
    ctx.parents.forEach((p, i) => {
      for (const u of p.units) {
        // A unit is split into lines only when one is needed: for a link, a code span or the word skill.
        let lines: string[] | undefined;
        const lineText = (line: number) => (lines ??= u.text.split('\n'))[line - u.line] ?? '';
        for (const l of u.links) {
          const target = linkedSkill(p, l.url, byFolder);
          if (target !== undefined) add(i, target, 'link', l.url, p.file, l.line, lineText(l.line));
        }
        for (const c of u.inlineCode) {
          const value = c.value.trim().toLowerCase();
          // `plugin:skill` is explicit enough for a name without a hyphen.
          const prefixed = /^[a-z0-9-]+:[a-z0-9]/.test(value);
          const target = resolveName(value.replace(/^[a-z0-9-]+:/, ''), i, ctx.parents, byName, prefixed, prefixed ? value.slice(0, value.indexOf(':')) : undefined);
          if (target !== undefined) add(i, target, 'mention', `\`${c.value.trim()}\``, p.file, c.line, lineText(c.line));
        }
        // Every mention ends in the word skill (any case): a text without those letters has none.
        if (!SKILL_LETTERS.test(u.text)) continue;
        (lines ??= u.text.split('\n')).forEach((text, k) => {
          if (!SKILL_LETTERS.test(text)) return;
          for (const m of namedSkills(text)) {
            const target = resolveName(m[1]!.toLowerCase(), i, ctx.parents, byName, false);
            if (target !== undefined) add(i, target, 'mention', m[0], p.file, u.line + k, text);
          }
        });
      }
    });
    // Mentions both ways between two skills: the direction more of them say wins ("invoke
    // `exploring-graphql-schema` first" five times against one "use the commands defined in the
    // `exploring-graphql-schema` skill", a reference read as a next step). A tie keeps both.
    const kept = [...edges.values()].filter((e) => (edges.get(`${e.to} ${e.from}`)?.count ?? 0) <= e.count);
    return kept.map((e): GraphEdge => ({ from: ctx.parentIds[e.from]!, to: ctx.parentIds[e.to]!, type: 'wf', weight: e.count, evidence: e.evidence }));
  },
};

const SKILL_LETTERS = /skill/i;

/** "the X skill", "**X** skill": a hyphenated name, then the word skill, ending at the end of the text. */
const NAMED_SKILL_AT_END = /\b(?:the\s+)?\*{0,2}([a-z0-9]+(?:-[a-z0-9]+)+)\*{0,2}\s+skill$/i;
/** How far before the word "skill" a mention may start: "the", two asterisks and a long name. */
const MENTION_WINDOW = 256;

/**
 * The mentions of a skill by name in a line, left to right and not overlapping, as one global
 * search for NAMED_SKILL_AT_END's pattern would find them. Each match ends at a word "skill", so
 * the search runs once per such word over the text before it, from where the last match ended and
 * at most MENTION_WINDOW characters back. A search over the whole line retried the name at every
 * hyphen of a long hyphenated run: quadratic, minutes on one crafted line of a megabyte.
 */
export function namedSkills(line: string): RegExpMatchArray[] {
  const out: RegExpMatchArray[] = [];
  let done = 0;
  for (const hit of line.matchAll(/\bskill\b/gi)) {
    const end = hit.index + hit[0].length;
    let from = Math.max(done, hit.index - MENTION_WINDOW);
    // Start the window between words, so that its \b is the line's.
    while (from > done && from < hit.index && /\w/.test(line[from - 1]!) && /\w/.test(line[from]!)) from++;
    const m = NAMED_SKILL_AT_END.exec(line.slice(from, end));
    if (!m) continue;
    out.push(m);
    done = end;
  }
  return out;
}

/** Frontmatter name and folder name, lower case. */
function namesOf(p: Parent): string[] {
  const names = [path.posix.basename(p.path).toLowerCase()];
  const n = p.frontmatter.data?.['name'];
  if (typeof n === 'string' && n.trim()) names.push(n.trim().toLowerCase());
  return names.filter((x) => /^[a-z0-9][a-z0-9-]*$/.test(x) && x !== '.');
}

function linkedSkill(p: Parent, url: string, byFolder: ReadonlyMap<string, number>): number | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('#') || url.startsWith('/')) return undefined;
  const clean = decodeURIComponentSafe(url.split('#')[0]!.split('?')[0]!);
  if (!clean) return undefined;
  let target = path.posix.normalize(path.posix.join(p.path === '.' ? '' : p.path, clean));
  if (target.endsWith('/SKILL.md')) target = target.slice(0, -'/SKILL.md'.length);
  target = target.replace(/\/$/, '');
  return byFolder.get(target);
}

/**
 * A skill named by a code span or "X skill": names with a hyphen only (or, after a `plugin:`
 * prefix, a name without one in a package of the prefix's name or beside the naming skill), in
 * the prefix's package when one of that name is there, else nearest in the tree, ties by path.
 */
function resolveName(name: string, self: number, parents: readonly Parent[], byName: ReadonlyMap<string, number[]>, plainAllowed: boolean, plugin?: string): number | undefined {
  if (!name.includes('-') && !plainAllowed) return undefined;
  /** Whether a skill's path has the `plugin:` prefix's name as a folder. */
  const inPlugin = (i: number) => plugin !== undefined && parents[i]!.path.toLowerCase().split('/').includes(plugin);
  // A skill that names itself (its own CLI, `nano-pdf` in the nano-pdf skill) points at no other
  // skill, though another package may ship one of that name; unless a `plugin:` prefix names
  // another package's skill of that name, and one is there.
  const others = (byName.get(name) ?? []).filter((i) => i !== self);
  const inPrefixed = others.filter(inPlugin);
  // A name without a hyphen is a skill's only inside the package the prefix names, or beside the
  // naming skill (`superpowers:brainstorming` in the superpowers repository itself, whose folder
  // is not named so): `docs:deploy` and `sw:done` elsewhere are other tools' commands far more often.
  const folder = path.posix.dirname(parents[self]!.path);
  const candidates = inPrefixed.length > 0 ? inPrefixed : name.includes('-') ? others : others.filter((i) => path.posix.dirname(parents[i]!.path) === folder);
  if (namesOf(parents[self]!).includes(name) && !(inPrefixed.length > 0 && !inPlugin(self))) return undefined;
  if (candidates.length === 0) return undefined;
  const here = parents[self]!.path.split('/');
  const shared = (i: number) => {
    const there = parents[i]!.path.split('/');
    let k = 0;
    while (k < here.length && k < there.length && here[k] === there[k]) k++;
    return k;
  };
  return [...candidates].sort((a, b) => shared(b) - shared(a) || (parents[a]!.path < parents[b]!.path ? -1 : 1))[0];
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
