/**
 * Names and literals for the typed view of contracts. A contract id is kebab-case text chosen for
 * people (`install-dependencies`); the declarations need a TypeScript identifier for it, the same
 * one every time and a different one for every contract of a build, and each binding a skill
 * passes to `invoke(...)` needs a TypeScript literal whose type the checker can hold against the
 * contract's input schema. Both the declarations and the calls checked against them take their
 * names and literals from here, so the two cannot drift apart.
 */
import type { FieldType } from '../ir/types.js';
import { compareCodeUnits } from '../util/stable-json.js';

/**
 * Words that cannot name a function declared in an ES module: the reserved words, the
 * strict-mode reserved words, `await` (reserved in modules), the names strict mode forbids
 * binding, and TypeScript's built-in type names and globals (a function called `undefined` or
 * `string` would read as the built-in, and some of them are rejected outright).
 */
const RESERVED: ReadonlySet<string> = new Set([
  'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do',
  'else', 'enum', 'export', 'extends', 'false', 'finally', 'for', 'function', 'if', 'import', 'in',
  'instanceof', 'new', 'null', 'return', 'super', 'switch', 'this', 'throw', 'true', 'try',
  'typeof', 'var', 'void', 'while', 'with',
  'implements', 'interface', 'let', 'package', 'private', 'protected', 'public', 'static', 'yield',
  'await', 'arguments', 'eval',
  'any', 'bigint', 'boolean', 'never', 'number', 'object', 'string', 'symbol', 'unknown',
  'undefined', 'NaN', 'Infinity', 'globalThis',
]);

/**
 * The camelCase identifier for a contract id: `install-dependencies` → `installDependencies`,
 * `check-connection-2` → `checkConnection2`, `3d-render` → `_3dRender`, `delete` → `delete_`.
 * Any run of characters that cannot appear in an identifier separates words.
 */
export function functionNameOf(contractId: string): string {
  const words = contractId.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
  let name = words.map((w, i) => (i === 0 ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())).join('');
  // An id with no letters or digits still needs a name; the collision pass keeps it unique.
  if (name === '') name = 'contract';
  if (/^[0-9]/.test(name)) name = `_${name}`;
  if (RESERVED.has(name)) name = `${name}_`;
  return name;
}

/**
 * Identifiers for a whole set of contract ids, collision-free: ids are taken in sorted order
 * (code-unit order, not locale order, so every machine agrees) and an id whose name is already
 * taken gets `_2`, `_3`, …. Base names never contain `_<digit>` after their first character, so a
 * suffixed name cannot collide with a later id's base name.
 */
export function functionNames(ids: readonly string[]): Map<string, string> {
  const sorted = [...new Set(ids)].sort(compareCodeUnits);
  const used = new Set<string>();
  const out = new Map<string, string>();
  for (const id of sorted) {
    const base = functionNameOf(id);
    let name = base;
    for (let k = 2; used.has(name); k++) name = `${base}_${k}`;
    used.add(name);
    out.set(id, name);
  }
  return out;
}

/** The PascalCase stem of a contract's interface names (`installDependencies` → `InstallDependencies`). */
export function typeStemOf(functionName: string): string {
  return functionName.charAt(0).toUpperCase() + functionName.slice(1);
}

/**
 * The string aliases the declarations export, one per field type that is text denoting something
 * else. Bindings are text taken from a skill, so every alias is `string`; the alias names say what
 * the text stands for when a reader looks at a signature.
 */
export const STRING_ALIASES: ReadonlyMap<FieldType, { readonly name: string; readonly description: string }> = new Map<FieldType, { name: string; description: string }>([
  ['file', { name: 'FileRef', description: 'A path to a file, as written in the skill.' }],
  ['document', { name: 'DocumentRef', description: 'A path to a document (PDF, DOCX, …), as written in the skill.' }],
  ['image', { name: 'ImageRef', description: 'A path to an image, as written in the skill.' }],
  ['table', { name: 'TableRef', description: 'A path to tabular data (CSV, XLSX, …), as written in the skill.' }],
  ['json', { name: 'JsonText', description: 'JSON text, or a path to a JSON file.' }],
  ['list', { name: 'ListText', description: 'Several values written as one piece of text (comma- or space-separated).' }],
  ['enum', { name: 'EnumValue', description: 'One of a fixed set of values.' }],
  ['object', { name: 'ObjectText', description: 'A structured value written as text (a mapping, an expression).' }],
]);

/** The TypeScript type of a field: `number`, `boolean`, `string` or one of the string aliases. */
export function tsTypeOf(type: FieldType): string {
  switch (type) {
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'string':
      return 'string';
    default:
      return STRING_ALIASES.get(type)?.name ?? 'string';
  }
}

const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * The TypeScript literal for a binding value. A number slot gets a numeric literal only when the
 * text is a plain decimal number, and a boolean slot a `true`/`false` literal only for true/false;
 * anything else becomes a string literal, so a skill that passes `latest` where a number belongs
 * fails the type check instead of being coerced.
 */
export function literalOf(type: FieldType, value: string): string {
  if ((type === 'integer' || type === 'number') && DECIMAL.test(value)) {
    // `007` is an octal literal TypeScript rejects; the number it means is 7.
    return value.replace(/^(-?)0+(?=\d)/, '$1');
  }
  if (type === 'boolean' && /^(true|false)$/i.test(value)) return value.toLowerCase();
  return JSON.stringify(value);
}

/** A property name as written in a declaration or object literal: bare when it is an identifier. */
export function propertyNameOf(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}
