/**
 * The invoke notation written into skeletons (SPEC §2 pass 6): `invoke(<contract id>, {name="value",
 * …})`. Values are JSON string literals, so any text a unit binds (quotes, backslashes, braces)
 * survives and the notation parses back to exactly the call-site's bindings. In markdown the call
 * is wrapped in a code span (text/code-span.ts), so no binding can turn into markup.
 */

export interface ParsedInvoke {
  readonly contract: string;
  readonly bindings: Record<string, string>;
  /** Offsets of `invoke(` … `)` in the searched text. */
  readonly start: number;
  readonly end: number;
}

/** Bindings are written in the order of `order` (the contract's input_schema), then any others sorted. */
export function formatInvoke(contract: string, bindings: Readonly<Record<string, string>>, order: readonly string[] = []): string {
  const names = [...order.filter((n) => n in bindings), ...Object.keys(bindings).filter((n) => !order.includes(n)).sort()];
  return `invoke(${contract}, {${names.map((n) => `${n}=${JSON.stringify(bindings[n])}`).join(', ')}})`;
}

const HEAD = /invoke\(([a-z0-9][a-z0-9-]*), \{/g;

/** Every well-formed invoke in `text`, in order. Malformed ones are skipped (they are not ours). */
export function parseInvokes(text: string): ParsedInvoke[] {
  const out: ParsedInvoke[] = [];
  HEAD.lastIndex = 0;
  for (let m = HEAD.exec(text); m; m = HEAD.exec(text)) {
    const parsed = parseBindings(text, m.index + m[0].length);
    if (parsed === null) continue;
    out.push({ contract: m[1]!, bindings: parsed.bindings, start: m.index, end: parsed.end });
    HEAD.lastIndex = parsed.end;
  }
  return out;
}

function parseBindings(text: string, at: number): { bindings: Record<string, string>; end: number } | null {
  const bindings: Record<string, string> = {};
  let i = at;
  if (text.startsWith('})', i)) return { bindings, end: i + 2 };
  for (;;) {
    const name = /^[A-Za-z_]\w*=/.exec(text.slice(i, i + 80));
    if (!name) return null;
    i += name[0].length;
    const str = readJsonString(text, i);
    if (str === null) return null;
    bindings[name[0].slice(0, -1)] = str.value;
    i = str.end;
    if (text.startsWith('})', i)) return { bindings, end: i + 2 };
    if (!text.startsWith(', ', i)) return null;
    i += 2;
  }
}

function readJsonString(text: string, at: number): { value: string; end: number } | null {
  if (text[at] !== '"') return null;
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '\n') return null;
    else if (c === '"') {
      try {
        return { value: JSON.parse(text.slice(at, i + 1)) as string, end: i + 1 };
      } catch {
        return null;
      }
    }
  }
  return null;
}
