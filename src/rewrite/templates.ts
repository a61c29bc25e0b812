/**
 * Action templates as data: a template string such as `take {object} from {source}` split into
 * constant text and slots, matched against a concrete action line (slot alignment) and
 * instantiated with bindings.
 *
 * Syntax, as in Python's and Rust's format strings: `{name}` is a slot when `name` is one of the
 * template's slots; a brace that belongs to the action itself is doubled (`{{` and `}}`), so
 * `print(f"{{name}}: {{value}}")` is the line `print(f"{name}: {value}")` with no slot at all, and
 * JSON, shell `${VAR}`, Jinja `{{ x }}` and placeholders such as `{API_KEY}` in a skill's code stay
 * text. Templates skillc writes are always in this form (escapeTemplateText); for templates from
 * elsewhere (a model's draft) a single brace that opens no slot is read as text too, and
 * canonicalTemplate rewrites them into the escaped form.
 */
import type { ActionTemplate } from '../ir/types.js';
import { collapse } from '../text/collapse.js';

export type TemplatePiece = { readonly kind: 'const'; readonly text: string } | { readonly kind: 'slot'; readonly name: string };

export function templatePieces(t: Pick<ActionTemplate, 'template' | 'slots'>): TemplatePiece[] {
  const pieces: TemplatePiece[] = [];
  const names = new Set(t.slots);
  const text = t.template;
  let literal = '';
  const flush = () => {
    if (literal !== '') pieces.push({ kind: 'const', text: literal });
    literal = '';
  };
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    if ((c === '{' || c === '}') && text[i + 1] === c) {
      literal += c;
      i += 2;
      continue;
    }
    if (c === '{') {
      const m = /^\{([A-Za-z_]\w*)\}/.exec(text.slice(i, i + 200));
      if (m && names.has(m[1]!)) {
        flush();
        pieces.push({ kind: 'slot', name: m[1]! });
        i += m[0].length;
        continue;
      }
    }
    literal += c;
    i++;
  }
  flush();
  return pieces;
}

/** Constant text of an action line as template text: its braces doubled. */
export function escapeTemplateText(text: string): string {
  return text.replace(/[{}]/g, (b) => b + b);
}

/** The template in skillc's own form: constant text escaped, slots as `{name}`. Idempotent. */
export function canonicalTemplate(t: Pick<ActionTemplate, 'template' | 'slots'>): string {
  return templatePieces(t)
    .map((p) => (p.kind === 'const' ? escapeTemplateText(p.text) : `{${p.name}}`))
    .join('');
}

/** The template with every slot written `{}`: two templates that differ only in slot names are equal. */
export function slotsBlanked(t: Pick<ActionTemplate, 'template' | 'slots'>): string {
  return templatePieces(t)
    .map((p) => (p.kind === 'const' ? escapeTemplateText(p.text) : '{}'))
    .join('');
}

const compiled = new WeakMap<object, Map<string, RegExp>>();

/**
 * The slot values that make `line` an instance of the template, or null. Whitespace is compared
 * collapsed; a slot takes the shortest text that lets the rest match, the last slot the remainder.
 * Required slots must be non-empty.
 */
export function matchTemplate(t: Pick<ActionTemplate, 'template' | 'slots'>, line: string, required: ReadonlySet<string> = new Set(t.slots)): Record<string, string> | null {
  let byRequired = compiled.get(t);
  if (!byRequired) compiled.set(t, (byRequired = new Map()));
  const key = [...required].sort().join(',');
  let re = byRequired.get(key);
  if (!re) {
    // Spaces in constant text are required (so " to " cannot match inside "tomato"), except the
    // one next to an optional slot, which disappears when the slot is empty.
    const pieces = templatePieces(t);
    const optional = (i: number) => {
      const p = pieces[i];
      return p !== undefined && p.kind === 'slot' && !required.has(p.name);
    };
    const src = pieces
      .map((p, i) => {
        if (p.kind === 'slot') return required.has(p.name) ? '(.+?)' : '(.*?)';
        let s = escapeRegExp(p.text.replace(/\s+/g, ' '));
        if (optional(i + 1)) s = s.replace(/ $/, ' ?');
        if (optional(i - 1)) s = s.replace(/^ /, ' ?');
        return s;
      })
      .join('');
    re = new RegExp(`^${src}$`, 's');
    byRequired.set(key, re);
  }
  const m = re.exec(collapse(line));
  if (!m) return null;
  const out: Record<string, string> = {};
  const slots = templatePieces(t).filter((p): p is { kind: 'slot'; name: string } => p.kind === 'slot');
  slots.forEach((s, i) => {
    out[s.name] = m[i + 1]!.trim();
  });
  return out;
}

/**
 * The template with every slot replaced by its binding, whitespace collapsed. A slot without a
 * binding is left empty: optional inputs may be absent (required ones are checked before this).
 */
export function instantiate(t: Pick<ActionTemplate, 'template' | 'slots'>, bindings: Readonly<Record<string, string>>): string {
  let out = '';
  for (const p of templatePieces(t)) out += p.kind === 'const' ? p.text : (bindings[p.name] ?? '');
  return collapse(out);
}

/** The constant text a line must contain to match the template (its longest constant piece), for cheap prefiltering. */
export function anchorOf(t: Pick<ActionTemplate, 'template' | 'slots'>): string {
  let best = '';
  for (const p of templatePieces(t)) if (p.kind === 'const' && p.text.trim().length > best.length) best = p.text.trim();
  return best.split(/\s+/).sort((a, b) => b.length - a.length)[0] ?? '';
}



export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
