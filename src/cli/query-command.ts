/**
 * `skillc query "<task>" --dist <dist>`: the bundle an agent reads for one task. Exit 0 with hits,
 * 1 with NO_SKILL_HIT (so scripts can branch on it), 2 for usage errors or an unreadable index.
 */
import fs from 'node:fs';
import { openRetriever } from '../query/retriever.js';
import { IndexError } from '../query/graph-index.js';
import { renderQueryJson, renderQueryMarkdown } from '../query/render.js';

export interface QueryCommandOptions {
  readonly dist: string;
  readonly k: number;
  readonly budget: number;
  readonly format: 'md' | 'json';
  readonly outputFile?: string;
}

export async function runQuery(task: string, opts: QueryCommandOptions): Promise<number> {
  let retriever;
  try {
    retriever = openRetriever(opts.dist);
  } catch (err) {
    if (err instanceof IndexError) {
      process.stderr.write(`skillc query: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const result = await retriever.query(task, { k: opts.k, budget: opts.budget });
  const text = opts.format === 'json' ? renderQueryJson(result) : renderQueryMarkdown(result);
  if (opts.outputFile) fs.writeFileSync(opts.outputFile, text);
  else process.stdout.write(text);
  return result.status === 'ok' ? 0 : 1;
}
