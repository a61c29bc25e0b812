/**
 * Section contracts from similarity clusters (issue 19 items 4 and 5): statements are templated
 * one by one, values are bare, and the authors' own template lines are left to the author
 * template clusters.
 */
import { describe, expect, it } from 'vitest';
import { extractContract, wordsOnly, type MemberUnit } from '../../src/extract/contract.js';
import { parentOf } from '../helpers/skill.js';
import type { Cluster, Contract } from '../../src/ir/types.js';

function members(bodies: readonly string[], heading: string): MemberUnit[] {
  return bodies.map((body, i) => {
    const parent = parentOf(`s${i}`, `---\nname: s${i}\ndescription: d\n---\n# S${i}\n\n## ${heading}\n\n${body}\n`);
    return { parent, unit: parent.units.find((u) => u.heading === heading)! };
  });
}

function draft(ms: MemberUnit[]): Contract {
  const cluster: Cluster = { id: 'c-test', units: ms.map((m) => m.unit.id), parents: ms.map((m) => m.parent.path), verb: 'run', objects: [], minLinkCosine: 1, origin: 'similarity' };
  const d = extractContract(cluster, ms);
  if ('reason' in d) throw new Error(d.reason);
  return d;
}

describe('section contracts', () => {
  it('templates each statement on its own, with bare values', () => {
    const ms = members([
      '```bash\ngit clone "https://github.com/a/tools.git" tools\ncd tools\nmake install\n```',
      '```bash\ngit clone "https://github.com/b/kit.git" kit\ncd kit\nmake install\n```',
    ], 'Bootstrap');
    const c = draft(ms);
    expect(c.templates.map((t) => t.template)).toEqual(['git clone "{repository}" {directory}', 'cd {directory}', 'make install']);
    // One input for the directory the clone makes and the cd enters, under the more telling name.
    expect(c.input_schema.map((f) => f.name)).toEqual(['repository', 'directory']);
    expect(c.templates[0]!.instances[0]!.bindings).toEqual({ repository: 'https://github.com/a/tools.git', directory: 'tools' });
  });

  it('leaves lines with the authors\' own placeholders to their own clusters', () => {
    const ms = members([
      'Use `go to {receptacle}` to move.\n\n```text\ngo to fridge 1\nopen fridge 1\n```',
      'Use `go to {receptacle}` to move.\n\n```text\ngo to cabinet 2\nopen cabinet 2\n```',
    ], 'Find it');
    const c = draft(ms);
    expect(c.templates.map((t) => t.template)).toEqual(['go to {destination}', 'open {destination}']);
  });

  it('drops a line whose value is a shell expression the other lines do not quote', () => {
    const ms = members([
      '```bash\nffmpeg -i in.avi -c:v libx264 -preset slow -crf 22 out.mp4\n```',
      '```bash\nffmpeg -i clip.mov -c:v libx264 -preset slow -crf 22 clip.mp4\n```',
      '```bash\nffmpeg -i "$f" -c:v libx264 -preset slow -crf 22 "${f%.avi}.mp4"\n```',
    ], 'Convert');
    const t = draft(ms).templates[0]!;
    expect(t.instances.map((i) => i.unit)).toEqual([ms[0]!.unit.id, ms[1]!.unit.id]);
    expect(t.instances.flatMap((i) => Object.values(i.bindings)).some((v) => /["'`]/.test(v))).toBe(false);
  });

  it('keeps a conditional step between the steps it branches from', () => {
    const steps = (kit: string) => `1. Call \`MANAGE_CONNECTIONS\` with toolkit \`${kit}\`\n2. If the connection is not ACTIVE, follow the returned auth link\n3. Confirm the connection shows ACTIVE`;
    const c = draft(members([steps('ably'), steps('asana'), steps('box')], 'Setup'));
    expect(c.templates.map((t) => t.template)).toEqual([
      'Call MANAGE_CONNECTIONS with toolkit {toolkit}',
      'If the connection is not ACTIVE, follow the returned auth link',
      'Confirm the connection shows ACTIVE',
    ]);
  });

  it('takes no statement for a step, conditional or not', () => {
    const steps = (app: string) => `1. Connect your ${app} account\n2. Once connected, all ${app.toUpperCase()}_* tools become available\n3. All ${app} tools are listed`;
    const c = draft(members([steps('Gmail'), steps('Slack')], 'Setup'));
    expect(c.templates.map((t) => t.template)).toEqual(['Connect your {account} account']);
  });

  it('states a condition only if two members state it, and an action\'s only if it names the action', () => {
    const body = (kit: string, extra: string) => `Make sure the server is running.\n\n${extra}\n\n1. Call \`MANAGE\` with toolkit \`${kit}\`\n2. Confirm it shows ACTIVE`;
    const c = draft(members([body('ably', 'Ensure your token has admin scopes.'), body('asana', ''), body('box', '')], 'Setup'));
    expect(c.preconditions).toEqual(['Make sure the server is running.']);

    const ms = members([
      'Output: The egg 1 is heated and placed on the table.\n\nEnsure the fridge is open before you take anything.\n\n```text\ntake egg 1 from fridge 1\n```',
      'Output: The egg 1 is heated and placed on the table.\n\nEnsure the fridge is open before you take anything.\n\n```text\ntake apple 2 from cabinet 3\n```',
    ], 'Do it');
    const cluster: Cluster = {
      id: 'c-act', units: ms.map((m) => m.unit.id), parents: ms.map((m) => m.parent.path), verb: 'take', objects: [], minLinkCosine: 1, origin: 'author-template',
      template: { template: 'take {object} from {receptacle}', slots: ['object', 'receptacle'], source: 'code', spellings: ['take {obj} from {recep}'] },
    };
    const action = extractContract(cluster, ms);
    if ('reason' in action) throw new Error(action.reason);
    // Both members say what the heating gives, which is no result of taking.
    expect(action.postconditions).toEqual([]);
    expect(action.preconditions).toEqual(['Ensure the fridge is open before you take anything.']);
  });

  it('keeps out a step no member takes with the others, and lists the steps in the members\' order', () => {
    const steps = (app: string, last: string) => `1. Add the server to your ${app} client\n2. Connect your ${app} account\n3. ${last}`;
    const c = draft(members([
      steps('Gmail', 'Start using the workflows below'),
      steps('Slack', 'Start using the workflows below'),
      steps('Jira', 'Start issuing commands to manage your issues'),
      steps('Asana', 'Start issuing commands to manage your tasks'),
    ], 'Setup'));
    expect(c.templates.map((t) => t.template)).toEqual(['Add the server to your {client} client', 'Connect your {client} account', 'Start using the workflows below']);

    // The second step is shared by all three members, the first by two: ranked by sharing, the
    // second would come first.
    const ordered = draft(members([
      '1. Open the gmail dashboard\n2. Run sync for gmail',
      '1. Open the slack dashboard\n2. Run sync for slack',
      '1. Run sync for jira',
    ], 'Sync'));
    expect(ordered.templates.map((t) => t.template.replace(/\{\w+\}/g, '{}'))).toEqual(['Open the {} dashboard', 'Run sync for {}']);
  });

  it('reads an action\'s side effects from its own line, not from the sections around it', () => {
    const action = (template: string, lines: readonly string[]) => {
      const ms = members(lines.map((l) => `Execute the task action, then fetch the next item and show the result.\n\n\`\`\`text\n${l}\n\`\`\``), 'Do it');
      const slots = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const cluster: Cluster = { id: 'c-act', units: ms.map((m) => m.unit.id), parents: ms.map((m) => m.parent.path), verb: 'take', objects: [], minLinkCosine: 1, origin: 'author-template', template: { template, slots, source: 'code', spellings: [template] } };
      const c = extractContract(cluster, ms);
      if ('reason' in c) throw new Error(c.reason);
      return c.side_effects.map((e) => e.kind);
    };
    expect(action('open {receptacle}', ['open drawer 1', 'open fridge 2'])).toEqual([]);
    expect(action('download {dataset}', ['download census', 'download iris'])).toEqual(['network']);
  });

  it('states a numbered step that holds a command once, by its command', () => {
    const body = (doc: string, pdf: string, prefix: string) =>
      `1. **Convert ${doc.toUpperCase()} to PDF**:\n   \`\`\`bash\n   soffice --headless --convert-to pdf ${doc}\n   \`\`\`\n\n2. **Convert PDF pages to JPEG images**:\n   \`\`\`bash\n   pdftoppm -jpeg -r 150 ${pdf} ${prefix}\n   \`\`\`\n   This creates files like \`${prefix}-1.jpg\`, etc.`;
    const c = draft(members([body('document.docx', 'document.pdf', 'page'), body('deck.pptx', 'deck.pdf', 'slide')], 'Converting to images'));
    expect(c.templates.map((t) => t.source)).toEqual(['code', 'code']);
    expect(c.templates.map((t) => t.template)).toEqual(['soffice --headless --convert-to pdf {document}', 'pdftoppm -jpeg -r 150 {document_2} {name}']);
  });

  it('keeps a numbered step around a value in a block (a URL) as the action', () => {
    const body = (kit: string) => `1. Add the MCP server to your client:\n   \`\`\`\n   https://example.test/mcp\n   \`\`\`\n2. Connect your ${kit} account when prompted\n3. Start issuing commands`;
    const c = draft(members([body('Ably'), body('Asana'), body('Box')], 'Setup'));
    expect(c.templates[0]!.source).toBe('step');
    expect(c.templates[0]!.template).toMatch(/^Add the MCP server to your client/);
  });

  it('takes no action from a sentence that forbids it', () => {
    const body = (code: string) => `- Never run \`ordercli reorder ${code} --confirm\` unless the user confirms.\n- Use \`ordercli status ${code}\` rather than \`ordercli status ${code} --watch\`.\n- Preview: \`ordercli reorder ${code}\``;
    const c = draft(members([body('a1'), body('b2')], 'Reorder'));
    const texts = c.templates.flatMap((t) => t.instances.map((i) => i.text));
    expect(texts.some((t) => t.includes('--confirm') || t.includes('--watch'))).toBe(false);
    expect(texts).toContain('ordercli status a1');
  });

  it('takes no slot from lines that differ only in punctuation', () => {
    const body = (arrow: string) => `You need a token:\n1. Open Bear ${arrow} Help ${arrow} API Token ${arrow} Copy Token\n2. Save it: \`echo "YOUR_TOKEN" > ~/.config/grizzly/token\``;
    const ms = members([body('→'), body('→'), body('->')], 'Token');
    const cluster: Cluster = { id: 'c-test', units: ms.map((m) => m.unit.id), parents: ms.map((m) => m.parent.path), verb: 'open', objects: [], minLinkCosine: 1, origin: 'similarity' };
    const d = extractContract(cluster, ms);
    // With the arrows taken out, nothing varies: no procedure to call.
    expect('reason' in d && d.reason).toMatch(/no varying slot/);
  });

  it('does not make another way to run a step into a second step', () => {
    const body = (pdf: string, prefix: string) => `\`\`\`bash\npdftoppm -jpeg -r 150 ${pdf} ${prefix}\n\`\`\`\n\nExample for a page range:\n\`\`\`bash\npdftoppm -jpeg -r 150 -f 2 -l 5 ${pdf} ${prefix}  # Converts only pages 2-5\n\`\`\``;
    const c = draft(members([body('a.pdf', 'page'), body('b.pdf', 'slide')], 'Images'));
    expect(c.templates.map((t) => t.template)).toEqual(['pdftoppm -jpeg -r 150 {document} {name}']);
    // The same command with more options on other values is a step of its own.
    const two = (pdf: string, prefix: string) => `\`\`\`bash\npdftoppm -jpeg -r 150 ${pdf} ${prefix}\n\`\`\`\n\nThen the appendix:\n\`\`\`bash\npdftoppm -jpeg -r 150 -f 2 -l 5 appendix-${pdf} appendix-${prefix}\n\`\`\``;
    const k = draft(members([two('a.pdf', 'page'), two('b.pdf', 'slide')], 'Images'));
    expect(k.templates).toHaveLength(2);
  });
});

describe('slot values told apart by their words', () => {
  it('are the same when only typography differs', () => {
    expect(wordsOnly('→')).toBe(wordsOnly('->'));
    expect(wordsOnly('coverage')).toBe(wordsOnly('coverage"'));
    expect(wordsOnly('Mail Sync')).toBe(wordsOnly('mail  sync'));
    expect(wordsOnly('/* ... */ })')).toBe(wordsOnly(''));
  });
  it('differ when punctuation parts other words, or a path differs', () => {
    expect(wordsOnly('==1.10')).not.toBe(wordsOnly('==11.0'));
    expect(wordsOnly('..')).not.toBe(wordsOnly('.'));
    expect(wordsOnly('~/')).not.toBe(wordsOnly('/'));
  });
});
