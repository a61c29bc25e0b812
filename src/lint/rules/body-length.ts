/**
 * body-length: the body stays within 500 lines and 5,000 tokens.
 */
import type { LintRule } from '../types.js';

/** Bodies larger than this are counted up to it: past it, the exact count only says "far over the limit" more slowly. */
const MAX_COUNTED_CHARS = 1024 * 1024;

export const bodyLength: LintRule<{ maxLines: number; maxTokens: number }> = {
  meta: {
    id: 'body-length',
    category: 'content',
    summary: 'the body is at most 500 lines and 5,000 tokens',
    doc: 'An agent loads the whole body of SKILL.md once it picks the skill, so the Agent Skills specification advises keeping it under 500 lines and about 5,000 tokens, with detail moved to files under references/ that are read only when needed. Tokens are counted with the o200k_base BPE (GPT-4o family); other models\' tokenizers differ by some percent. The count is exact; the tokenizer is loaded only when the body has more UTF-8 bytes than the limit, since a token is at least one byte. A body over 1 MiB is counted in its first MiB, which is enough to show it is over the limit.',
    defaultLevel: 'warn',
    fixable: false,
    optionsSchema: {
      type: 'object',
      additionalProperties: false,
      properties: { maxLines: { type: 'integer', minimum: 1 }, maxTokens: { type: 'integer', minimum: 1 } },
    },
    defaultOptions: { maxLines: 500, maxTokens: 5000 },
  },
  async check(ctx, options) {
    const { subject } = ctx;
    const bodyStart = subject.frontmatter.raw.length;
    const body = subject.text.slice(bodyStart);
    const firstBodyLine = subject.lines.position(bodyStart).line;
    const bodyLines = subject.lines.lineCount - firstBodyLine + 1;
    if (bodyLines > options.maxLines) {
      const over = subject.lines.offsetOfLine(firstBodyLine + options.maxLines);
      ctx.report({ offset: over, message: `the body has ${bodyLines} lines; the limit is ${options.maxLines} (this is line ${options.maxLines + 1} of the body): move detail to references/` });
    }
    if (Buffer.byteLength(body, 'utf8') > options.maxTokens) {
      if (body.length > MAX_COUNTED_CHARS) {
        // Cut at a line end, so that the prefix's count is a lower bound of the whole body's.
        const cut = Math.max(body.lastIndexOf('\n', MAX_COUNTED_CHARS), 0);
        const tokens = await ctx.services.countTokens(body.slice(0, cut));
        if (tokens > options.maxTokens) {
          ctx.report({ offset: bodyStart, message: `the body is over ${tokens} tokens (o200k, counted in its first ${cut} of ${body.length} characters); the limit is ${options.maxTokens}: move detail to references/` });
          return;
        }
      }
      const tokens = await ctx.services.countTokens(body);
      if (tokens > options.maxTokens) {
        ctx.report({ offset: bodyStart, message: `the body is ${tokens} tokens (o200k); the limit is ${options.maxTokens}: move detail to references/` });
      }
    }
  },
};
