/**
 * Action templates as data: a template string such as `take {object} from {source}` split into
 * constant text and slots, matched against a concrete action line (slot alignment) and
 * instantiated with bindings. Only `{name}` holes whose name is one of the template's slots are
 * slots, so braces that belong to the code itself (`${HOME}`, `{"a": 1}`) stay constant.
 */
import type { ActionTemplate } from '../ir/types.js';

export type TemplatePiece = { readonly kind: 'const'; readonly text: string } | { readonly kind: 'slot'; readonly name: string };

export function templatePieces(t: Pick<ActionTemplate, 'template' | 'slots'>): TemplatePiece[] {
  const pieces: TemplatePiece[] = [];
  const names = new Set(t.slots);
  let last = 0;
  for (const m of t.template.matchAll(/\{([A-Za-z_][\w]*)\}/g)) {
    if (!names.has(m[1]!)) continue;
    if (m.index > last) pieces.push({ kind: 'const', text: t.template.slice(last, m.index) });
    pieces.push({ kind: 'slot', name: m[1]! });
    last = m.index + m[0].length;
  }
  if (last < t.template.length) pieces.push({ kind: 'const', text: t.template.slice(last) });
  return pieces;
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

export function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
