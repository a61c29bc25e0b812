/**
 * `skillc query "<task>" --dist <dist>`: the bundle an agent reads for one task; with `--plan`, the
 * skills a multi-step task needs in the order they are used. Exit 0 with hits, 1 with NO_SKILL_HIT
 * (so scripts can branch on it), 2 for usage errors or an unreadable index.
 *
 * A damaged or hostile dist (its index naming a bundle outside the dist, a missing or oversized
 * bundle, an edge to an unknown node) is one line on stderr, `skillc query: <why>`, and exit 2:
 * the dist is input, and its problems are the user's to fix, not internal errors. Paths and names
 * in that line come from the dist, so their control characters are shown escaped.
 *
 * The markdown answer is what an agent reads, so it is written as the bundles are, byte for byte,
 * to a pipe or a file. On a terminal a person reads it, and a skill's body could hold escape
 * sequences (clear the screen, retitle the window, hide lines): there it is shown through
 * escapeBlock, as `ls` quotes file names only on a terminal.
 */
import fs from 'node:fs';
import { openRetriever } from '../query/retriever.js';
import { IndexError } from '../query/graph-index.js';
import { renderPlanJson, renderPlanMarkdown, renderQueryJson, renderQueryMarkdown } from '../query/render.js';
import { escapeBlock, escapeInline } from '../text/terminal.js';
import { errnoText } from '../util/errno.js';
import { DistReadError } from '../util/confined-read.js';

export interface QueryCommandOptions {
  readonly dist: string;
  readonly k: number;
  readonly budget: number;
  readonly format: 'md' | 'json';
  readonly outputFile?: string;
  /** Answer with an ordered plan (query/plan.ts) instead of a ranked list. */
  readonly plan?: boolean;
}

export async function runQuery(task: string, opts: QueryCommandOptions): Promise<number> {
  let text: string;
  let status: 'ok' | 'NO_SKILL_HIT';
  try {
    const retriever = openRetriever(opts.dist);
    if (opts.plan) {
      const result = await retriever.plan(task, { k: opts.k, budget: opts.budget });
      text = opts.format === 'json' ? renderPlanJson(result) : renderPlanMarkdown(result);
      status = result.status;
    } else {
      const result = await retriever.query(task, { k: opts.k, budget: opts.budget });
      text = opts.format === 'json' ? renderQueryJson(result) : renderQueryMarkdown(result);
      status = result.status;
    }
  } catch (err) {
    if (err instanceof IndexError || err instanceof DistReadError) {
      process.stderr.write(`skillc query: ${escapeInline(err.message)}\n`);
      return 2;
    }
    throw err;
  }
  if (opts.outputFile) {
    try {
      fs.writeFileSync(opts.outputFile, text);
    } catch (err) {
      process.stderr.write(`skillc query: cannot write ${escapeInline(opts.outputFile)}: ${errnoText(err)}\n`);
      return 2;
    }
  } else process.stdout.write(process.stdout.isTTY === true && opts.format === 'md' ? escapeBlock(text) : text);
  return status === 'ok' ? 0 : 1;
}
