/**
 * unknown-fields: the frontmatter holds only the fields the Agent Skills specification defines.
 */
import type { LintRule } from '../types.js';
import { reportKey } from './helpers.js';

/** The fields the Agent Skills specification defines (the reference validator's allowed set). */
export const SPEC_FIELDS: readonly string[] = ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'];

/**
 * Top-level fields an agent reads at run time beyond the specification, by agent. Moved under
 * metadata they would stop working (`user-invocable: false` would make the skill a slash command
 * again), so the advice for them differs.
 */
export const AGENT_FIELDS: ReadonlyMap<string, string> = new Map([
  ['argument-hint', 'Claude Code'],
  ['disable-model-invocation', 'Claude Code'],
  ['user-invocable', 'Claude Code'],
  ['model', 'Claude Code'],
  ['context', 'Claude Code'],
  ['agent', 'Claude Code'],
  ['hooks', 'Claude Code'],
]);

export const unknownFields: LintRule<{ allow: string[] }> = {
  meta: {
    id: 'unknown-fields',
    category: 'spec',
    summary: 'only the specification\'s frontmatter fields are used',
    doc: 'The Agent Skills specification defines six frontmatter fields: name, description, license, compatibility, metadata and allowed-tools. Other top-level fields (version, author, tags, …) are ignored by some agents and rejected by the reference validator; put them under `metadata` instead. A field one agent reads at run time (the Claude Code fields argument-hint, user-invocable, disable-model-invocation, model, context, agent, hooks) would stop working under metadata: keep it if the skill is for that agent and list it in `allow`, or remove it. By default this is a warning; `--strict` makes it an error, as the reference validator does. The `allow` option lists fields your agents do read (for example a vendor extension).',
    defaultLevel: 'warn',
    strictLevel: 'error',
    fixable: false,
    optionsSchema: { type: 'object', additionalProperties: false, properties: { allow: { type: 'array', items: { type: 'string' }, uniqueItems: true } } },
    defaultOptions: { allow: [] },
  },
  check(ctx, options) {
    const fields = ctx.subject.fields;
    if (!fields) return;
    const allowed = new Set([...SPEC_FIELDS, ...options.allow]);
    for (const entry of fields.entries) {
      if (allowed.has(entry.key)) continue;
      const agent = AGENT_FIELDS.get(entry.key);
      if (agent) reportKey(ctx, entry, `frontmatter field '${entry.key}' is ${agent}'s, not the specification's: other agents and the reference validator do not read it; if the skill is for ${agent}, keep it and list it in this rule's allow option (under metadata it would stop working)`);
      else reportKey(ctx, entry, `unknown frontmatter field '${entry.key}': the specification allows ${SPEC_FIELDS.join(', ')}; move it under metadata`);
    }
  },
};
