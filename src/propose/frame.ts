/**
 * Frames by shallow parsing (SPEC §2, pass 2): the verb class is the first lexicon word of the
 * unit's heading, else of its first numbered step, else of its first sentence; the objects are the
 * heading's other content words. Sections that describe rather than act ("Overview", "When to
 * use", "References") get no verb and are not clustered: they are not procedures.
 */
import type { Frame, Parent, SkillFileRef, Unit } from '../ir/types.js';
import { STOP_WORDS, eachWord, stem, words } from '../text/tokens.js';
import type { VerbLexicon } from './lexicon.js';

const DESCRIPTIVE_HEADING = /^(when (to|not to) use|overview|introduction|intro|about|description|summary|notes?|references?|resources|see also|related|background|context|purpose|table of contents|contents|faq|glossary|license|credits|changelog|version|key (concepts|principles)|core (concepts|principles)|principles|philosophy|capabilities|features|limitations|quick reference|cheat ?sheet|output format|anti-patterns?|role|persona|instructions|guidelines|skill|bundled resources)\b/i;

export function frameOf(parent: Parent, unit: Unit, lexicon: VerbLexicon): Frame {
  const heading = unit.heading ?? '';
  const descriptive = DESCRIPTIVE_HEADING.test(heading.replace(/^[^A-Za-z]+/, ''));
  let verb: string | null = null;
  let objectSource = heading;
  if (!descriptive) {
    verb = firstVerb(heading, lexicon);
    if (verb === null) {
      const step = unit.bullets.find((b) => b.ordered && b.depth === 1);
      for (const candidate of [() => step?.text ?? '', () => firstSentence(unit.text)]) {
        const text = candidate();
        verb = firstVerb(text, lexicon, 3);
        if (verb !== null) {
          if (!heading) objectSource = text;
          break;
        }
      }
    }
  }
  const objects: string[] = [];
  for (const w of words(objectSource)) {
    if (w.length < 3 || STOP_WORDS.has(w) || lexicon.classOf(w) !== undefined) continue;
    const s = stem(w);
    if (!objects.includes(s)) objects.push(s);
    if (objects.length === 3) break;
  }
  const codeLangs = [...new Set(unit.codeBlocks.map((c) => (c.lang ?? 'text').toLowerCase()))].sort();
  return { unit: unit.id, verb, objects, codeLangs, linkedScripts: linkedScripts(parent, unit).map((s) => s.path) };
}

/**
 * The unit's text after its first line, trimmed, up to the end of its first sentence (a space after
 * '.', '!' or '?', or a blank line): what splitting it there would give first, without splitting
 * the rest.
 */
export function firstSentence(text: string): string {
  const body = text.slice(text.indexOf('\n') + 1).trim();
  SENTENCE_END.lastIndex = 0;
  const end = SENTENCE_END.exec(body);
  return end ? body.slice(0, end.index) : body;
}

const SENTENCE_END = /(?<=[.!?])\s|\n\n/g;

/** The parent's scripts a unit links to or names (the frame's linked_scripts; extract and verify use them too). */
export function linkedScripts(parent: Parent, unit: Unit): SkillFileRef[] {
  return parent.scripts.filter((s) => unit.text.includes(s.relPath) || unit.links.some((l) => l.url.replace(/^\.\//, '') === s.relPath));
}

/** Verb class of the first lexicon word among the first `within` words (all words by default). */
function firstVerb(text: string, lexicon: VerbLexicon, within = Infinity): string | null {
  // Word by word: the first sentence of a unit can be all of it, and only its first words count.
  let seen = 0;
  for (const w of eachWord(text)) {
    if (STOP_WORDS.has(w)) continue;
    if (seen++ >= within) break;
    const cls = lexicon.classOf(w);
    if (cls !== undefined) return cls;
  }
  return null;
}
