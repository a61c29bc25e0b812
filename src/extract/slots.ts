/**
 * Names and types for template slots, from the constant before the slot (a flag, `install`, `>`)
 * and from the values seen in the members (file extensions, numbers, URLs). Types come from the
 * closed set of SPEC §4.
 */
import type { FieldType } from '../ir/types.js';

const EXT_TYPES: Record<string, FieldType> = {
  png: 'image', jpg: 'image', jpeg: 'image', gif: 'image', webp: 'image', bmp: 'image', tif: 'image', tiff: 'image', svg: 'image',
  pdf: 'document', docx: 'document', doc: 'document', pptx: 'document', odt: 'document', md: 'document', txt: 'document', html: 'document', rtf: 'document',
  csv: 'table', tsv: 'table', xlsx: 'table', xls: 'table', parquet: 'table',
  json: 'json', jsonl: 'json',
};

const FILE_RE = /^["']?[\w.~\/-]*\.[A-Za-z0-9]{1,6}["']?$|^["']?(\.{0,2}\/|~\/)[\w.\/-]+["']?$/;
const URL_RE = /^["']?https?:\/\//;

export interface SlotShape {
  readonly name: string;
  readonly type: FieldType;
  readonly output: boolean;
}

export function shapeSlot(before: string | undefined, values: readonly string[]): SlotShape {
  const present = values.filter((v) => v !== '');
  const b = (before ?? '').replace(/[=:]$/, '');
  const output = /^(--?o|--out|--output|--output-file|--dest|--destination|>|>>|-O)$/.test(b);
  let name = 'value';
  if (output) name = 'output';
  else if (/^--?[A-Za-z][\w-]*$/.test(b)) name = b.replace(/^-+/, '').replace(/-/g, '_').toLowerCase();
  else if (/^(install|add|require)$/i.test(b)) name = 'package';
  else if (/^(cd|mkdir|ls)$/.test(b)) name = 'directory';
  else if (/^(clone)$/.test(b)) name = 'repository';
  else if (/^(take|pick|grab|move|put|place|heat|cool|clean|wash|slice|open|close|examine|toggle|use|hold)$/i.test(b)) name = 'object';
  else if (/^(from|in|on|into|to)$/i.test(b)) name = b.toLowerCase() === 'from' ? 'source' : 'target';
  else if (/^(python3?|node|bash|sh|ruby|deno|bun|npx|uv|run)$/.test(b)) name = 'script';
  const type = typeOf(present);
  if (name === 'value') name = type === 'file' || type === 'image' || type === 'document' || type === 'table' || type === 'json' ? 'input_file' : type === 'string' && present.every((v) => URL_RE.test(v)) ? 'url' : type === 'integer' || type === 'number' ? 'count' : type === 'list' ? 'items' : 'target';
  return { name, type, output };
}

function typeOf(values: readonly string[]): FieldType {
  if (values.length === 0) return 'string';
  // Several words make a list ("pandas tabulate"), unless every value is a name with a number
  // ("laptop 1", "desk 2"): that is one object, as text environments number them.
  if (values.some((v) => /\s/.test(v.trim()) && !/^["'`]/.test(v)) && !values.every((v) => /^[A-Za-z][\w-]*( [A-Za-z][\w-]*)? \d+$/.test(v.trim()))) return 'list';
  if (values.every((v) => /^-?\d+$/.test(v))) return 'integer';
  if (values.every((v) => /^-?\d*\.\d+$|^-?\d+$/.test(v))) return 'number';
  if (values.every((v) => /^(true|false)$/i.test(v))) return 'boolean';
  if (values.every((v) => FILE_RE.test(v) && !URL_RE.test(v))) {
    const exts = new Set(values.map((v) => EXT_TYPES[(v.replace(/["']/g, '').split('.').pop() ?? '').toLowerCase()] ?? 'file'));
    return exts.size === 1 ? [...exts][0]! : 'file';
  }
  return 'string';
}
