/**
 * The verb lexicon (rules/verbs.json) as a stem → verb-class map. Loaded once per process and
 * validated against schemas/verbs.schema.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../util/package-root.js';
import { validateAgainst } from '../schema/validate.js';
import { stem, words } from '../text/tokens.js';

export interface VerbLexicon {
  /** Verb class of a word (by stem), or undefined. */
  classOf(word: string): string | undefined;
}

let cached: VerbLexicon | undefined;

export function loadVerbLexicon(): VerbLexicon {
  if (cached) return cached;
  const doc = JSON.parse(fs.readFileSync(path.join(packageRoot(), 'rules', 'verbs.json'), 'utf8')) as { classes: Record<string, string[]> };
  const check = validateAgainst('verbs', doc);
  if (!check.valid) throw new Error(`rules/verbs.json is invalid: ${check.errors.join('; ')}`);
  return (cached = lexiconFrom(doc.classes));
}

export function lexiconFrom(classes: Record<string, readonly string[]>): VerbLexicon {
  const byStem = new Map<string, string>();
  for (const cls of Object.keys(classes).sort()) {
    for (const form of classes[cls]!) {
      const w = words(form)[0];
      if (w && !byStem.has(stem(w))) byStem.set(stem(w), cls);
    }
  }
  return { classOf: (word) => byStem.get(stem(word.toLowerCase())) };
}
