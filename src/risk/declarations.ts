/**
 * What a skill's author declares about its side effects: the items of frontmatter
 * `metadata.side-effects` (comma- or space-separated, lower-cased): risk sink ids such as
 * `bash.rm-recursive`, or kinds such as `network`. Read by contract extraction (declarations
 * every source parent shares) and by lint's undeclared-risk rule.
 */
import type { Frontmatter } from '../ir/types.js';

export function declaredSideEffects(frontmatter: Frontmatter): Set<string> {
  const meta = frontmatter.data?.['metadata'];
  const raw = meta && typeof meta === 'object' ? (meta as Record<string, unknown>)['side-effects'] : undefined;
  return new Set(typeof raw === 'string' ? raw.split(/[\s,]+/).filter(Boolean).map((s) => s.toLowerCase()) : []);
}
