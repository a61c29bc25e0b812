/**
 * The explicit, ordered list of passes `skillc build` runs. A new pass is added here and nowhere
 * else; the driver checks that each pass's inputs were provided by an earlier one.
 */
import type { Pass } from './pass.js';
import { parsePass } from './parse.js';
import { passagesPass } from './passages.js';
import { proposePass } from './propose.js';
import { extractPass } from './extract.js';
import { verifyPass } from './verify.js';
import { bindPass } from './bind.js';
import { rewritePass } from './rewrite.js';

export const PASSES: readonly Pass[] = [parsePass, passagesPass, proposePass, extractPass, verifyPass, bindPass, rewritePass];
