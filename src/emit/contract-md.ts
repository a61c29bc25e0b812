/**
 * contracts/<id>.md: a contract as readable pseudocode — its signature, I/O, conditions, side
 * effects, the action templates as numbered steps, where it is invoked, and the verifier's verdict.
 * The JSON next to it is the source of truth; this is for people and agents reading the library.
 */
import type { CallSite, Contract, FieldSpec, Profile } from '../ir/types.js';
import { codeSpan } from '../text/code-span.js';
import { fieldSignature } from '../rewrite/contract-text.js';

export { fieldSignature };

export function renderContractMarkdown(c: Contract, profile: Profile | undefined, callSites: readonly CallSite[], fnName: string): string {
  const L: string[] = [];
  L.push(`# ${c.id}`, '', `${c.trigger}`, '');
  const args = c.input_schema.map(fieldSignature).join(', ');
  const outs = c.output_schema.length ? `{ ${c.output_schema.map((f) => `${f.name}: ${f.type}`).join(', ')} }` : 'void';
  L.push('```ts', `${fnName}({ ${args} }): ${outs}`, '```', '');
  L.push('## Inputs', '');
  for (const f of c.input_schema) L.push(`- \`${f.name}\` (${f.type}, ${f.required ? 'required' : 'optional'}): ${f.description}`);
  if (c.output_schema.length) {
    L.push('', '## Outputs', '');
    for (const f of c.output_schema) L.push(`- \`${f.name}\` (${f.type}): ${f.description}`);
  }
  const list = (title: string, xs: readonly string[]) => {
    if (xs.length === 0) return;
    L.push('', `## ${title}`, '');
    for (const x of xs) L.push(`- ${x}`);
  };
  list('Preconditions', c.preconditions);
  list('Postconditions', c.postconditions);
  list('Side effects', c.side_effects.map((s) => `${s.kind}${s.sinks.length ? ` (${s.sinks.join(', ')})` : ''}: ${s.evidence}`));
  list('Resources', [...c.resources.scripts.map((s) => `script \`${s}\``), ...c.resources.references.map((s) => `reference \`${s}\``), ...c.resources.tools.map((s) => `tool \`${s}\``)]);
  L.push('', '## Procedure', '');
  c.templates.forEach((t, i) => L.push(`${i + 1}. ${codeSpan(t.template)}`));
  if (callSites.length) {
    L.push('', '## Invoked by', '');
    for (const cs of callSites) L.push(`- \`${cs.file}\` line ${cs.line}: ${codeSpan(cs.invoke)}`);
  }
  if (profile) {
    const s = profile.scores;
    L.push('', '## Verifier', '', `${profile.decision} (score ${profile.score}): coverage ${s.coverage} (min ${s.coverageMin}), binding ${s.binding}, replacement ${s.replacement}, risk ${s.risk}. ${profile.reason}.`);
  }
  L.push('', `Source parents: ${c.source_parents.map((p) => `\`${p}\``).join(', ')}.`, '');
  return L.join('\n');
}
