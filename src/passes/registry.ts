/**
 * The explicit, ordered list of passes `skillc build` runs. A new pass is added here and nowhere
 * else; the driver checks that each pass's inputs were provided by an earlier one.
 */
import type { Pass } from './pass.js';
import { parsePass } from './parse.js';

export const PASSES: readonly Pass[] = [parsePass];
