/** Graph construction: artifact roles per line, and each edge rule on small in-memory libraries. */
import { describe, expect, it } from 'vitest';
import { artifactLexiconFrom, lineRoles, loadArtifactLexicon, skillIO } from '../../src/graph/artifacts.js';
import { buildGraph } from '../../src/graph/build-graph.js';
import { namedSkills } from '../../src/graph/edges/wf.js';
import type { GraphDocument } from '../../src/graph/types.js';
import { buildInProcess } from '../helpers/build-ir.js';
import { scratchDir, writeTree } from '../helpers/tmp.js';
import type { BuildIR } from '../../src/ir/types.js';

let n = 0;
async function irOf(files: Record<string, string>): Promise<BuildIR> {
  const dir = `${scratchDir('graph')}/lib${n++}`;
  writeTree(dir, files);
  return (await buildInProcess(dir)).ir;
}
import { validateAgainst } from '../../src/schema/validate.js';

const lex = loadArtifactLexicon();

describe('artifact roles', () => {
  it.each([
    ['Convert the PDF to DOCX with pandoc.', [['pdf', 'input'], ['docx', 'output']]],
    ['Read the pcap with scapy.', [['pcap', 'input']]],
    ['Extract the tables from a PDF.', [['pdf', 'input']]],
    ['Saves a PNG chart of the totals.', [['image', 'output'], ['chart', 'output']]],
    ['The CSV has three columns.', []],
    // What is transcribed is read, not made (a reviewer found "outputs video" from this line).
    ['Transcribe the video to timestamped text.', [['video', 'input']]],
  ])('%s', (line, expected) => {
    expect(lineRoles(line, lex, null).map((m) => [m.type, m.role])).toEqual(expected);
  });

  it('takes the role from an Inputs/Outputs heading when the line has no cue', () => {
    expect(lineRoles('- a CSV of orders', lex, 'input')).toEqual([{ type: 'csv', role: 'input' }]);
  });

  it('does not read a Requirements or Prerequisites list as inputs: it names tools, not data', async () => {
    const ir = await irOf({ 'de/SKILL.md': '---\nname: de\ndescription: Differential expression.\n---\n\n# de\n\n## Requirements\n\n- matplotlib for charts\n\n## Inputs\n\n- a CSV of counts\n' });
    expect(skillIO(ir.parents![0]!, lex).inputs).toEqual(['csv']);
  });

  it('reads the lexicon from data', () => {
    const custom = artifactLexiconFrom({ artifacts: { widget: ['wdg'] }, produce: ['forge'], consume: ['eat'], outputHeadings: [], inputHeadings: [], carriers: ['widget'] });
    expect(custom.carriers.has('widget')).toBe(true);
    expect(lineRoles('forge a wdg', custom, null)).toEqual([{ type: 'widget', role: 'output' }]);
    expect(lineRoles('eat the wdg', custom, null)).toEqual([{ type: 'widget', role: 'input' }]);
  });

  it('tells a line that names an artifact as its word split would', () => {
    const lex = loadArtifactLexicon();
    const bySplit = (line: string) => [...line.matchAll(/[a-z0-9]+/gi)].some((m) => lex.typeOf.has(m[0].toLowerCase()));
    const words = [...lex.typeOf.keys()].slice(0, 40);
    const glue = [' ', '', '_', '-', '.', '/', '1', 'x', 'X', 'é', 'ſ', '\u212a', '\n'];
    let x = 11;
    const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let named = 0;
    for (let k = 0; k < 5_000; k++) {
      let line = '';
      for (let i = Math.floor(next() * 5); i >= 0; i--) {
        const w = words[Math.floor(next() * words.length)]!;
        line += glue[Math.floor(next() * glue.length)]! + (next() < 0.3 ? w.toUpperCase() : w) + glue[Math.floor(next() * glue.length)]!;
      }
      expect(lex.namesArtifact.test(line), JSON.stringify(line)).toBe(bySplit(line));
      if (bySplit(line)) named++;
    }
    expect(named).toBeGreaterThan(500);
    expect(named).toBeLessThan(4_500);
    expect(artifactLexiconFrom({ artifacts: {}, produce: [], consume: [], outputHeadings: [], inputHeadings: [] }).namesArtifact.test('csv')).toBe(false);
  });
});

async function graphOf(files: Record<string, string>): Promise<GraphDocument> {
  const ir = await irOf(files);
  const hydration = new Map((ir.parents ?? []).map((p) => [p.path, { bundle: `skills/${p.path}/SKILL.md`, source: `skills/${p.path}/SKILL.md`, tokens: 10 }]));
  const doc = buildGraph(ir, hydration);
  expect(validateAgainst('graph', JSON.parse(JSON.stringify(doc))).errors).toEqual([]);
  return doc;
}

const skill = (name: string, description: string, body: string) => `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\n${body}\n`;
const pairs = (doc: GraphDocument, type: string) => doc.edges.filter((e) => e.type === type).map((e) => `${e.from} -> ${e.to}`);

describe('edge rules', () => {
  it('dep points from the producer to the consumer, never from a skill to itself', async () => {
    const doc = await graphOf({
      'record/SKILL.md': skill('record', 'Records a packet capture from the network interface and saves a pcap file.', 'Run tcpdump on the interface.'),
      'inspect/SKILL.md': skill('inspect', 'Reads a pcap file and finds port scans in the traffic.', 'Count the ports each host contacts.'),
    });
    expect(pairs(doc, 'dep')).toEqual(['skill:record -> skill:inspect']);
    expect(doc.nodes.find((n) => n.id === 'skill:record')).toMatchObject({ outputs: ['pcap'] });
  });

  it('dep needs declared roles: a body line or a code example is no evidence of what a skill takes or makes', async () => {
    const doc = await graphOf({
      'record/SKILL.md': skill('record', 'Records a packet capture and saves a pcap file.', 'Run tcpdump.'),
      // Takes pcap only in a passing body line, and in a code example.
      'inspect/SKILL.md': skill('inspect', 'Finds port scans.', 'Load the packets from the pcap file.\n\n```python\npackets = read_pcap("capture.pcap")\n```'),
      // Declared under an Inputs heading: that counts.
      'summarise/SKILL.md': `---\nname: summarise\ndescription: Summarises traffic per host.\n---\n\n# summarise\n\n## Inputs\n\n- a pcap file of the traffic\n`,
    });
    expect(pairs(doc, 'dep')).toEqual(['skill:record -> skill:summarise']);
  });

  it('dep needs a handoff: a skill that also takes the artifact is no producer of it, one that also makes it no consumer', async () => {
    const doc = await graphOf({
      'record/SKILL.md': skill('record', 'Records a packet capture and saves a pcap file.', 'Run tcpdump.'),
      // Reads and writes pcap files alike: neither a producer nor a consumer of them.
      'trim/SKILL.md': skill('trim', 'Reads a pcap file, drops the noise and saves a smaller pcap file.', 'Trim it.'),
      'inspect/SKILL.md': skill('inspect', 'Reads a pcap file and finds port scans.', 'Count ports.'),
    });
    expect(pairs(doc, 'dep')).toEqual(['skill:record -> skill:inspect']);
  });

  it('dep over a general-purpose format needs a shared subject; a domain artifact does not', async () => {
    const doc = await graphOf({
      'sales/SKILL.md': skill('sales', 'Exports the quarterly sales totals and writes a JSON file of revenue per region.', 'Sum the quarterly sales totals per region for the finance team.'),
      'revenue/SKILL.md': skill('revenue', 'Reads a JSON file of revenue per region and plots it.', 'Plot the quarterly sales totals per region for the finance team.'),
      // Takes JSON as well, about something else entirely.
      'lint/SKILL.md': skill('lint', 'Reads a JSON file of eslint rules and fixes each warning.', 'Fix each warning in the TypeScript sources.'),
      'bake/SKILL.md': skill('bake', 'Bakes bread.', 'Knead flour, water, salt and yeast; proof overnight; bake at 250 degrees.'),
    });
    expect(lex.carriers.has('json')).toBe(true);
    expect(pairs(doc, 'dep')).toEqual(['skill:sales -> skill:revenue']);
  });

  it('dep does not link two copies of one skill', async () => {
    // The bodies name no artifact: only the descriptions make one a producer and the other a consumer.
    const body = 'Run tcpdump on the office interface during the busiest hour and keep the packets of every host on the network.';
    const files = {
      'record/SKILL.md': skill('record', 'Records packets and saves a pcap file.', body),
      'bake/SKILL.md': skill('bake', 'Bakes bread.', 'Knead flour, water, salt and yeast; proof overnight; bake at 250 degrees.'),
    };
    const copy = await graphOf({ ...files, 'record-copy/SKILL.md': skill('record-copy', 'Reads a pcap file.', body) });
    expect(pairs(copy, 'dep')).toEqual([]);
    // The same pair with different bodies is linked: the copy, not the roles, kept the edge out.
    const other = await graphOf({ ...files, 'record-copy/SKILL.md': skill('record-copy', 'Reads a pcap file.', 'Count the ports each host contacts and flag scans.') });
    expect(pairs(other, 'dep')).toEqual(['skill:record -> skill:record-copy']);
  });

  it('wf follows links and named skills, reversed when the named skill comes first', async () => {
    const doc = await graphOf({
      'a-plan/SKILL.md': skill('a-plan', 'Plans work.', 'When the plan is done, continue with the `b-build` skill.'),
      'b-build/SKILL.md': skill('b-build', 'Builds.', 'Build the code.'),
      'c-ship/SKILL.md': skill('c-ship', 'Ships.', 'Run [b-build](../b-build/SKILL.md) before shipping.'),
      'd-note/SKILL.md': skill('d-note', 'Notes.', 'Mentioning build or plan in prose is not a workflow.'),
    });
    expect(pairs(doc, 'wf')).toEqual(['skill:a-plan -> skill:b-build', 'skill:b-build -> skill:c-ship']);
    expect(doc.edges.find((e) => e.type === 'wf' && e.to === 'skill:c-ship')!.evidence[0]).toMatchObject({ kind: 'link', file: 'c-ship/SKILL.md', line: 8 });
  });

  it('wf: a skill naming itself (its own CLI) points at no same-named skill of another package', async () => {
    const doc = await graphOf({
      'pack-a/nano-pdf/SKILL.md': skill('nano-pdf', 'Edit PDFs with plain words.', 'Use `nano-pdf` to apply edits.'),
      'pack-b/nano-pdf/SKILL.md': skill('nano-pdf', 'Edit PDFs.', 'Use `nano-pdf` to apply edits; then use `pdf-ship`.'),
      'pack-b/pdf-ship/SKILL.md': skill('pdf-ship', 'Ships PDFs.', 'Upload the PDF.'),
    });
    expect(pairs(doc, 'wf')).toEqual(['skill:pack-b/nano-pdf -> skill:pack-b/pdf-ship']);
  });

  it('wf: a plugin: prefix names another package\'s skill of the same name, and only that one', async () => {
    const doc = await graphOf({
      'pack-a/deploy/SKILL.md': skill('deploy', 'Deploys A.', 'Then run `pack-d:deploy` for the mirror, and `pack-c:deploy` which is not there.'),
      'pack-b/deploy/SKILL.md': skill('deploy', 'Deploys B.', 'Then use `pack-a:deploy` again; `deploy` is this skill.'),
      'pack-d/deploy/SKILL.md': skill('deploy', 'Deploys D.', 'Run `pack-d:deploy`.'),
    });
    expect(pairs(doc, 'wf')).toEqual(['skill:pack-a/deploy -> skill:pack-d/deploy', 'skill:pack-b/deploy -> skill:pack-a/deploy']);
  });

  it('wf: a prefixed name without a hyphen is a skill only in the package the prefix names', async () => {
    const doc = await graphOf({
      'ops/deploy/SKILL.md': skill('deploy', 'Deploys.', 'Ship it.'),
      'ops/pdf-ship/SKILL.md': skill('pdf-ship', 'Ships PDFs.', 'Upload the PDF.'),
      // npm scripts and namespaced words: no package of that name holds a `deploy` skill.
      'web/release-notes/SKILL.md': skill('release-notes', 'Writes release notes.', 'Run `docs:deploy` or `build:deploy` when the notes are merged.'),
      // The prefix names the package: a skill of its.
      'web/publish/SKILL.md': skill('publish', 'Publishes.', 'Then run `ops:deploy`.'),
      // A hyphenated name is a skill's wherever it is, whatever the prefix.
      'web/print/SKILL.md': skill('print', 'Prints.', 'Then run `tools:pdf-ship`.'),
      // A repository that is the package: its skills sit side by side under a folder of another name.
      'skills/using-kit/SKILL.md': skill('using-kit', 'Starts every task.', 'First use `kit:brainstorming`.'),
      'skills/brainstorming/SKILL.md': skill('brainstorming', 'Brainstorms.', 'Ask questions.'),
    });
    expect(pairs(doc, 'wf')).toEqual(['skill:skills/brainstorming -> skill:skills/using-kit', 'skill:web/print -> skill:ops/pdf-ship', 'skill:web/publish -> skill:ops/deploy']);
  });

  it('reads a description YAML took for a mapping from its line, for the index', async () => {
    const doc = await graphOf({
      'food-order/SKILL.md': '---\nname: food-order\ndescription: Reorder Foodora orders with ordercli. Triggers: order food, reorder\n---\n\n# food-order\n\nPreview first.\n',
      'quoted/SKILL.md': '---\nname: quoted\ndescription: "Plain: quoted"\n---\n\n# quoted\n\nText.\n',
      // Folded over indented lines, with a comment after it: the whole sentence, without the comment.
      'folded/SKILL.md': '---\nname: folded\ndescription: Sync mail. Triggers: inbox,\n  unread mail # keep short\nlicense: MIT\n---\n\n# folded\n\nText.\n',
    });
    const node = (id: string) => doc.nodes.find((x) => x.id === id) as { description: string };
    expect(node('skill:food-order').description).toBe('Reorder Foodora orders with ordercli. Triggers: order food, reorder');
    expect(node('skill:quoted').description).toBe('Plain: quoted');
    expect(node('skill:folded').description).toBe('Sync mail. Triggers: inbox, unread mail');
  });

  it('wf keeps the direction most mentions give when two skills name each other both ways', async () => {
    const doc = await graphOf({
      'read-query/SKILL.md': skill('read-query', 'Generates read queries.', 'Invoke `explore-schema` first.\n\nThe schema must exist: run `explore-schema` first.\n\nLook names up with the grep commands of the `explore-schema` skill.'),
      'explore-schema/SKILL.md': skill('explore-schema', 'Explores the schema.', 'Grep the schema file for types.'),
      'tie-a/SKILL.md': skill('tie-a', 'A.', 'Continue with `tie-b`.'),
      'tie-b/SKILL.md': skill('tie-b', 'B.', 'Continue with `tie-a`.'),
    });
    const wf = pairs(doc, 'wf');
    // Two "first" against one reference: the schema comes first, and the reference is not a next step.
    expect(wf).toContain('skill:explore-schema -> skill:read-query');
    expect(wf).not.toContain('skill:read-query -> skill:explore-schema');
    // A tie keeps both.
    expect(wf).toContain('skill:tie-a -> skill:tie-b');
    expect(wf).toContain('skill:tie-b -> skill:tie-a');
  });

  it('sem links near neighbours above the cosine threshold only', async () => {
    const text = 'Rotate the nginx access logs daily with logrotate, compress old files and keep fourteen days.';
    const doc = await graphOf({
      'rotate-a/SKILL.md': skill('rotate-a', 'Log rotation.', text),
      'rotate-b/SKILL.md': skill('rotate-b', 'Log rotation too.', text + ' Reload nginx afterwards.'),
      'bake/SKILL.md': skill('bake', 'Bakes bread.', 'Knead flour, water, salt and yeast; proof overnight; bake at 250 degrees.'),
    });
    expect(pairs(doc, 'sem')).toEqual(['skill:rotate-a -> skill:rotate-b', 'skill:rotate-b -> skill:rotate-a']);
    for (const e of doc.edges.filter((x) => x.type === 'sem')) expect(e.weight).toBeGreaterThanOrEqual(0.3);
  });

  it('alt links parents with the same input and output artifacts that are not near-copies', async () => {
    const doc = await graphOf({
      'pdf-pandoc/SKILL.md': skill('pdf-pandoc', 'Converts a PDF to DOCX with pandoc.', 'Install pandoc and run it on the file.'),
      'pdf-libre/SKILL.md': skill('pdf-libre', 'Converts a PDF to DOCX with LibreOffice.', 'Open LibreOffice headless and export.'),
      'pdf-read/SKILL.md': skill('pdf-read', 'Reads a PDF.', 'Use pdftotext.'),
    });
    expect(pairs(doc, 'alt')).toEqual(['skill:pdf-libre -> skill:pdf-pandoc', 'skill:pdf-pandoc -> skill:pdf-libre']);
  });

  it('is deterministic: the same library gives the same document', async () => {
    const files = { 'x/SKILL.md': skill('x', 'Saves a CSV.', 'Write the CSV.'), 'y/SKILL.md': skill('y', 'Reads a CSV.', 'Load the CSV.') };
    expect(JSON.stringify(await graphOf(files))).toBe(JSON.stringify(await graphOf(files)));
  });
});

describe('skill I/O', () => {
  it('counts the description and the body, and a type is either input or output', async () => {
    const ir = await irOf({ 'a/SKILL.md': skill('a', 'Reads a CSV file.', 'Load the CSV. Load the CSV again. Write a CSV summary.') });
    const io = skillIO(ir.parents![0]!, lex);
    expect(io.inputs).toEqual(['csv']);
    expect(io.outputs).toEqual([]);
    expect(io.mentions.map((m) => m.role)).toEqual(['input', 'input', 'input', 'output']);
  });
});

describe('wf: skills named in a line', () => {
  const reference = (line: string) => [...line.matchAll(/\b(?:the\s+)?\*{0,2}([a-z0-9]+(?:-[a-z0-9]+)+)\*{0,2}\s+skill\b/gi)].map((m) => [m[0], m[1]]);
  const found = (line: string) => namedSkills(line).map((m) => [m[0], m[1]]);

  it.each([
    'Run the pdf-extract skill first, then the **csv-report** skill.',
    'Use The Data-Cleaner  Skill; not the skills list, nor askill-x skill-y skill.',
    'foo-bar skill-baz skill and x--y-z skill',
    'plain words skill, one-word skill, a-b skills, a-b skill',
  ])('finds what one global search finds: %s', (line) => {
    expect(found(line)).toEqual(reference(line));
  });

  it('finds the mentions in a long line in linear time (a global search was quadratic on a hyphenated run)', () => {
    // 200 KB of "a-a-a…" before "b skills skill": the name search retried at every hyphen; this took minutes at 1 MB.
    const line = `${'a-'.repeat(100_000)}b skills skill, then the x-y skill`;
    expect(found(line)).toEqual([['the x-y skill', 'x-y']]);
  });
});
