/**
 * Matching the malicious-install shapes in time linear in the text (issue 20's patterns; hostile
 * input). A regex such as `\bcurl\b[^\n]*?(URL)[^\n]*?(-o FILE)` is retried from every `curl` of a
 * line, and each try walks the rest of the line, and for each URL on it the rest again: one crafted
 * line of 20 KB took 16 s, and lint or build would hang on a megabyte. The helpers here find the
 * same matches as such a global search, but ask each question of the text once: the first match of
 * a part at or after a position is remembered for every later position before it, and a greedy
 * span up to a delimiter is answered once per delimiter.
 */

/**
 * The first match of `pattern` (global) starting at or after a position, for positions asked in
 * non-decreasing order: a match found from one position answers every later position up to its
 * start, so the text is scanned once however many positions are asked.
 */
export class NextMatch {
  private from = -1;
  private found: RegExpExecArray | null = null;
  private readonly re: RegExp;

  constructor(
    private readonly text: string,
    pattern: RegExp,
  ) {
    this.re = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  }

  at(position: number): RegExpExecArray | null {
    if (this.from >= 0 && position >= this.from && (this.found === null || this.found.index >= position)) return this.found;
    this.from = position;
    this.re.lastIndex = position;
    this.found = this.re.exec(this.text);
    return this.found;
  }
}

/**
 * The first index at or after a position whose character is in a class (a one-character pattern),
 * or the text's length; positions asked in non-decreasing order (see NextMatch).
 */
export class NextChar {
  private readonly next: NextMatch;

  constructor(
    private readonly text: string,
    charClass: RegExp,
  ) {
    this.next = new NextMatch(text, charClass);
  }

  at(position: number): number {
    return this.next.at(position)?.index ?? this.text.length;
  }
}

/** A match: where it starts and ends in the text. */
export interface Span {
  readonly index: number;
  readonly end: number;
}

/**
 * The matches of `prefix [^stop]* suffix` (the middle greedy), left to right and not overlapping,
 * as a global search finds them: from each prefix match, the span runs to the last position up to
 * the first stop character after the prefix where `suffix` matches (the suffix may run past it).
 * That last position depends only on the stop character, so it is found once per stop character.
 *
 * @param prefix global pattern
 * @param stop one-character class ending the greedy span (`[\n]`, `[|\n]`, `[)\n]`)
 * @param suffix pattern tried at one position (made sticky here)
 */
export function prefixSpanSuffix(text: string, prefix: RegExp, stop: RegExp, suffix: RegExp): Span[] {
  const re = new RegExp(prefix.source, prefix.flags.includes('g') ? prefix.flags : `${prefix.flags}g`);
  const tail = new RegExp(suffix.source, suffix.flags.replace(/[gy]/g, '') + 'y');
  const stops = new NextChar(text, stop);
  /** Per stop position: the last position, from the first prefix end asked, where the suffix matches. */
  let lastStop = -1;
  let lastFound: { at: number; end: number } | null = null;
  const out: Span[] = [];
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const from = m.index + m[0].length;
    const stopAt = stops.at(from);
    if (stopAt !== lastStop) {
      lastStop = stopAt;
      lastFound = null;
      for (let p = stopAt; p >= from; p--) {
        tail.lastIndex = p;
        const s = tail.exec(text);
        if (s) {
          lastFound = { at: p, end: p + s[0].length };
          break;
        }
      }
    }
    if (lastFound && lastFound.at >= from) {
      out.push({ index: m.index, end: lastFound.end });
      // A zero-length match cannot happen (the prefix has a word); continue after the match.
      re.lastIndex = lastFound.end;
    } else {
      re.lastIndex = m.index + 1;
    }
  }
  return out;
}
