/**
 * Author-template clusters (issue 19 item 1) and bounded single linkage (item 3).
 */
import { describe, expect, it } from 'vitest';
import { templateClusters } from '../../src/propose/template-clusters.js';
import { splitChains, hasCore } from '../../src/propose/cluster.js';
import { buildTfidf } from '../../src/propose/tfidf.js';
import { loadVerbLexicon } from '../../src/propose/lexicon.js';
import { parseSkill } from '../../src/passes/parse.js';
import type { Diagnostic } from '../../src/ir/diagnostics.js';
import type { Parent } from '../../src/ir/types.js';

function skill(name: string, body: string): Parent {
  const diags: Diagnostic[] = [];
  return parseSkill({ path: name, file: `${name}/SKILL.md`, content: new TextEncoder().encode(`---\nname: ${name}\ndescription: d\n---\n# ${name}\n\n${body}\n`), files: [] }, diags);
}

describe('templateClusters', () => {
  const lexicon = loadVerbLexicon();
  const parents = [
    skill('heater', '## Action format\n\n- `heat {obj} with {recep}` (e.g. `heat potato 1 with microwave 1`)\n'),
    skill('cooler', '## Action format\n\nUse `heat <object> with <receptacle>` when the task asks for a hot one.\n'),
    skill('solver', '## Example\n\n```\nAction: heat egg 2 with microwave 1\nObservation: You heat the egg 2.\n```\n'),
    skill('shell', '## Open\n\n```bash\nheat -a "x" with y\n```\n'),
    skill('lonely', '## Only here\n\n- `toggle {switch}`\n'),
  ];
  const clusters = templateClusters(parents, () => true, lexicon);

  it('groups the spellings of one template in two or more skills, with the units of its concrete lines', () => {
    expect(clusters).toHaveLength(1);
    const [c] = clusters;
    expect(c!.origin).toBe('author-template');
    expect(c!.template).toMatchObject({ template: 'heat {object} with {receptacle}', slots: ['object', 'receptacle'] });
    expect(c!.parents).toEqual(['cooler', 'heater', 'solver']);
  });

  it('does not take a program line whose values are flags or quoted arguments as a concrete call', () => {
    expect(clusters[0]!.parents).not.toContain('shell');
  });

  it('needs two skills: one author alone is no recurring procedure', () => {
    expect(clusters.some((c) => c.template?.template.startsWith('toggle'))).toBe(false);
  });
});

describe('bounded single linkage', () => {
  // a–b and b–c are close, a and c share nothing: one chain through b.
  const texts = ['install pandas numpy pip', 'install pandas numpy pip deploy kubernetes cluster', 'deploy kubernetes cluster helm', 'install pandas numpy pip'];
  const m = buildTfidf(texts);
  const blocks = texts.map(() => 'run');

  it('hasCore: a chain has members far from its centroid; near-copies do not', () => {
    expect(hasCore(m.vectors, [0, 3], 0.35)).toBe(true);
    expect(hasCore(m.vectors, [0, 1, 2, 3], 0.6)).toBe(false);
  });

  it('splitChains: links a chain again at a higher threshold until each part has a core', () => {
    const parts = splitChains(m.vectors, blocks, [0, 1, 2, 3], 0.2, { coreMin: 0.6 });
    expect(parts.every((p) => hasCore(m.vectors, p, 0.6))).toBe(true);
    expect(parts.some((p) => p.includes(0) && p.includes(2))).toBe(false);
    expect(parts.find((p) => p.includes(0))).toContain(3);
  });
});
