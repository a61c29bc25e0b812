/**
 * Relative links of SKILL.md, shared by link-resolves and link-depth: which links point into the
 * skill (or out of it), and where, with fragments, queries and percent-escapes taken off.
 */
import path from 'node:path';
import type { LintSubject } from '../types.js';

export interface RelativeLink {
  readonly url: string;
  /** The target relative to the skill folder, normalised (may start with ../). */
  readonly target: string;
  readonly offset: number;
  readonly kind: 'link' | 'image' | 'definition';
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

export function relativeLinks(subject: LintSubject): RelativeLink[] {
  const out: RelativeLink[] = [];
  for (const unit of subject.parent.units) {
    for (const link of unit.links) {
      const url = link.url.trim();
      if (url === '' || url.startsWith('#') || url.startsWith('/') || url.startsWith('\\') || SCHEME.test(url) || url.startsWith('<')) continue;
      let target = url.replace(/[?#].*$/, '');
      try {
        target = decodeURIComponent(target);
      } catch {
        // A malformed escape: keep the text as written.
      }
      if (target === '' || target.includes('{') || target.includes('$')) continue; // a template, not a file
      const normal = path.posix.normalize(target.replace(/\\/g, '/')).replace(/\/$/, '');
      out.push({ url, target: normal, offset: link.start, kind: link.kind });
    }
  }
  return out;
}
