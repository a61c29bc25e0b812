/**
 * The frontmatter's top-level keys with their positions in SKILL.md, so rules can point at the key
 * or value that is wrong (the parse IR keeps only the data). Scalars are also kept as written:
 * the reference validator reads every scalar as a string (strict YAML), so `name: 123` is the
 * name "123" and `version: 1.0` the text "1.0", not the number 1.
 */
import { isMap, isPair, isScalar, isSeq, isAlias, type Document, type Node, type ParsedNode } from 'yaml';

export type ValueKind = 'scalar' | 'map' | 'seq' | 'alias' | 'null';

export interface FieldEntry {
  readonly key: string;
  /** Offsets into SKILL.md's text. */
  readonly keyStart: number;
  readonly keyEnd: number;
  readonly valueStart: number;
  readonly valueEnd: number;
  readonly kind: ValueKind;
  /** For a scalar: its value as text (the source form for plain numbers and booleans). Else null. */
  readonly text: string | null;
  /** For a plain (unquoted) scalar: whether YAML would read it as something other than a string. */
  readonly nonString: boolean;
  /**
   * For a scalar: the type of the value YAML reads (`null` is `null` and `~` spelt out, 'other'
   * a value an explicit tag such as !!binary or !!timestamp made). Else null.
   */
  readonly scalarType: 'string' | 'number' | 'boolean' | 'null' | 'other' | null;
  /** Whether the value is a flow collection ({…} or […]). */
  readonly flow: boolean;
  /** Entries of a map value, or items of a sequence value (keys "0", "1", … for items). */
  readonly children: readonly FieldEntry[];
}

export interface FrontmatterView {
  readonly entries: readonly FieldEntry[];
  get(key: string): FieldEntry | undefined;
  /** Start offsets of anchors, aliases and tags (strict YAML rejects them). */
  readonly anchorsAndTags: readonly { readonly start: number; readonly end: number; readonly what: string }[];
}

/**
 * @param doc the parsed frontmatter (from splitFrontmatter)
 * @param yaml the frontmatter's YAML text; @param base its offset in SKILL.md
 */
export function viewFrontmatter(doc: Document.Parsed, yaml: string, base: number): FrontmatterView | null {
  if (!isMap(doc.contents)) return null;
  const anchorsAndTags: { start: number; end: number; what: string }[] = [];
  const entries = mapEntries(doc.contents.items, base, yaml, anchorsAndTags);
  const byKey = new Map<string, FieldEntry>();
  for (const e of entries) if (!byKey.has(e.key)) byKey.set(e.key, e);
  anchorsAndTags.sort((a, b) => a.start - b.start);
  return { entries, get: (k) => byKey.get(k), anchorsAndTags };
}

function mapEntries(items: readonly unknown[], base: number, yaml: string, marks: { start: number; end: number; what: string }[]): FieldEntry[] {
  const out: FieldEntry[] = [];
  for (const item of items) {
    if (!isPair(item)) continue;
    const keyNode = item.key as ParsedNode | null;
    const key = isScalar(keyNode) ? String(keyNode.value) : keyNode ? String((keyNode as { toString(): string }).toString()) : '';
    const kr = keyNode?.range ?? [0, 0, 0];
    const valueNode = item.value as ParsedNode | null;
    if (keyNode) noteMarks(keyNode, base, marks);
    out.push(entryOf(key, base + kr[0], base + kr[1], valueNode, base, yaml, marks));
  }
  return out;
}

function entryOf(key: string, keyStart: number, keyEnd: number, node: ParsedNode | null, base: number, yaml: string, marks: { start: number; end: number; what: string }[]): FieldEntry {
  if (node === null) {
    return { key, keyStart, keyEnd, valueStart: keyEnd, valueEnd: keyEnd, kind: 'null', text: null, nonString: false, scalarType: null, flow: false, children: [] };
  }
  noteMarks(node, base, marks);
  const [s, e] = node.range ?? [0, 0];
  const at = { key, keyStart, keyEnd, valueStart: base + s, valueEnd: base + e };
  if (isAlias(node)) return { ...at, kind: 'alias', text: null, nonString: false, scalarType: null, flow: false, children: [] };
  if (isScalar(node)) {
    if (node.value === null && (node.source === undefined || node.source === '' || node.source === null)) {
      return { ...at, kind: 'null', text: null, nonString: false, scalarType: null, flow: false, children: [] };
    }
    const plain = node.type === 'PLAIN';
    // Strings are their value (folded as YAML folds them); a plain number or boolean keeps its
    // source form, so "1.0" stays "1.0" as the reference validator's strict YAML reads it.
    const text = typeof node.value === 'string' ? node.value : yaml.slice(s, e).trim();
    const nonString = plain && typeof node.value !== 'string';
    const v: unknown = node.value;
    const scalarType = v === null ? 'null' : typeof v === 'string' ? 'string' : typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : 'other';
    return { ...at, kind: 'scalar', text, nonString, scalarType, flow: false, children: [] };
  }
  if (isMap(node)) {
    return { ...at, kind: 'map', text: null, nonString: false, scalarType: null, flow: node.flow === true, children: mapEntries(node.items, base, yaml, marks) };
  }
  if (isSeq(node)) {
    const children = node.items.map((it, i) => {
      const n = it as ParsedNode | null;
      const r = n?.range ?? [s, s];
      return entryOf(String(i), base + r[0], base + r[0], n, base, yaml, marks);
    });
    return { ...at, kind: 'seq', text: null, nonString: false, scalarType: null, flow: node.flow === true, children };
  }
  return { ...at, kind: 'null', text: null, nonString: false, scalarType: null, flow: false, children: [] };
}

function noteMarks(node: Node, base: number, marks: { start: number; end: number; what: string }[]): void {
  const r = (node as ParsedNode).range;
  if (!r) return;
  if (isAlias(node)) marks.push({ start: base + r[0], end: base + r[1], what: `alias *${node.source}` });
  const n = node as Node & { anchor?: string; tag?: string };
  if (n.anchor) marks.push({ start: base + r[0], end: base + r[1], what: `anchor &${n.anchor}` });
  if (n.tag && !n.tag.startsWith('tag:yaml.org,2002:') ) marks.push({ start: base + r[0], end: base + r[1], what: `tag ${n.tag}` });
  else if (n.tag) marks.push({ start: base + r[0], end: base + r[1], what: `tag !!${n.tag.slice('tag:yaml.org,2002:'.length)}` });
}
