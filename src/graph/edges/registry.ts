/** The edge rules, one per edge type, in the order their edges are listed in graph.json. */
import type { EdgeRule } from './edge-rule.js';
import { invokesRule } from './invokes.js';
import { depRule } from './dep.js';
import { wfRule } from './wf.js';
import { semRule } from './sem.js';
import { altRule } from './alt.js';

export const EDGE_RULES: readonly EdgeRule[] = [invokesRule, depRule, wfRule, semRule, altRule];
