/**
 * What the retrieval benches share: a query set (JSONL of {query, gold}) with its gold paths read
 * under an optional folder prefix, and the dist's parents with their content hashes (a retrieved
 * skill counts as gold when its SKILL.md is byte-identical to a gold skill's).
 */
import fs from 'node:fs';
import path from 'node:path';

export interface QueryRow {
  readonly query: string;
  readonly gold: readonly string[];
}

export interface DistParent {
  readonly path: string;
  readonly sha256: string;
  readonly frontmatter: { readonly raw: string };
  readonly units: readonly { readonly text: string }[];
}

/** Command-line arguments: positional ones, and `--prefix <folder/>` for a pool with distractors. */
export function benchArgs(argv: readonly string[], valueFlags: readonly string[]): { positional: string[]; prefix: string; value: (flag: string) => string | undefined } {
  const takes = ['--prefix', ...valueFlags];
  const positional = argv.filter((a, i) => !a.startsWith('--') && !(i > 0 && takes.includes(argv[i - 1]!)));
  const value = (flag: string) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  return { positional, prefix: value('--prefix') ?? '', value };
}

export function readQuerySet(file: string, prefix: string): QueryRow[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as QueryRow)
    .map((r) => ({ ...r, gold: r.gold.map((g) => prefix + g) }));
}

export function readParents(dist: string): readonly DistParent[] {
  return (JSON.parse(fs.readFileSync(path.join(dist, 'parents.json'), 'utf8')) as { parents: readonly DistParent[] }).parents;
}

/** Each skill's text as plain BM25 reads it: frontmatter and body. */
export function rawText(p: DistParent): string {
  return p.frontmatter.raw + p.units.map((u) => u.text).join('');
}
