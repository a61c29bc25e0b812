/**
 * Classes a skill's supporting file as script, reference or asset (SPEC §2, pass 1): a code
 * extension or a shebang makes a script; anything under the skill's top-level assets/ folder, or
 * any binary file, is an asset; every other text file is a reference.
 */
import type { FileKind } from '../ir/types.js';

export const CODE_EXTENSIONS: ReadonlySet<string> = new Set([
  'py', 'pyw', 'sh', 'bash', 'zsh', 'fish', 'ksh', 'js', 'mjs', 'cjs', 'ts', 'mts', 'cts', 'tsx', 'jsx',
  'rb', 'pl', 'pm', 'php', 'go', 'rs', 'java', 'kt', 'kts', 'scala', 'swift', 'c', 'h', 'cc', 'cpp', 'cxx',
  'hpp', 'hh', 'cs', 'fs', 'ps1', 'psm1', 'bat', 'cmd', 'lua', 'r', 'jl', 'sql', 'awk', 'sed', 'tcl', 'groovy',
  'dart', 'ex', 'exs', 'erl', 'hs', 'ml', 'clj', 'nim', 'zig', 'v', 'vb', 'applescript', 'scpt',
]);

export function extensionOf(relPath: string): string {
  const base = relPath.slice(relPath.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

export function classifyFile(relPath: string, isText: boolean, head: string): FileKind {
  if (isText && (CODE_EXTENSIONS.has(extensionOf(relPath)) || head.startsWith('#!'))) return 'script';
  if (relPath.startsWith('assets/') || !isText) return 'asset';
  return 'reference';
}
