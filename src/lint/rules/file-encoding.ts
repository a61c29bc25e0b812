/**
 * file-encoding: SKILL.md is UTF-8 text: no UTF-16, no bytes that are not UTF-8, no NUL.
 */
import { NO_OPTIONS } from './helpers.js';
import type { LintRule } from '../types.js';

export const fileEncoding: LintRule = {
  meta: {
    id: 'file-encoding',
    category: 'spec',
    summary: 'SKILL.md is UTF-8 text',
    doc: 'Agents, the reference validator and `skillc build` read SKILL.md as UTF-8. A file saved as UTF-16 (often by Windows editors and PowerShell redirection) reads as bytes with a NUL between every letter, so its frontmatter is not found at all; a byte that is not UTF-8 (Latin-1 or Windows-1252 text, a truncated character) reads as U+FFFD, and `skillc build` reports the skill as lossy; a NUL character marks UTF-16 without a byte order mark or binary data. The message names the first such byte and where it is. Save the file as UTF-8 (without a byte order mark). There is no automatic fix: which encoding was meant cannot be known for sure.',
    defaultLevel: 'error',
    fixable: false,
    ...NO_OPTIONS,
  },
  check(ctx) {
    const { encoding } = ctx.subject;
    if (encoding.utf16) {
      ctx.report({ offset: 0, message: `SKILL.md is UTF-16 (${encoding.utf16}, with a byte order mark): agents and validators read UTF-8, in which its frontmatter cannot be found; save it as UTF-8` });
      return;
    }
    if (encoding.invalid) {
      const { byteOffset, byte, offset } = encoding.invalid;
      const latin = byte >= 0xa0 ? ` (${String.fromCharCode(byte)} in Latin-1 or Windows-1252?)` : '';
      ctx.report({ offset, endOffset: offset + 1, message: `SKILL.md is not valid UTF-8: byte 0x${byte.toString(16).padStart(2, '0')} at byte offset ${byteOffset} is not part of a UTF-8 character${latin}; readers see U+FFFD here and in any later such bytes; save the file as UTF-8` });
    }
    if (encoding.nul !== undefined) {
      ctx.report({ offset: encoding.nul, endOffset: encoding.nul + 1, message: 'SKILL.md holds a NUL character here: text has none; it is UTF-16 without a byte order mark, or binary data' });
    }
  },
};
