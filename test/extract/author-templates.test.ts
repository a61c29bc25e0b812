/**
 * Author templates (issue 19 item 1): placeholders the authors wrote become slots under their own
 * names; concrete lines that match are call-sites with bare values.
 */
import { describe, expect, it } from 'vitest';
import { authorTemplateOf, canonicalSlotName, matchConcrete, stripActionLabel, unifySpellings } from '../../src/extract/author-templates.js';
import { tokenizeCode, tokenizeLine, type ActionLine } from '../../src/extract/action-lines.js';

function line(source: ActionLine['source'], text: string, shell = false) {
  const { tokens } = source === 'code' && !shell ? tokenizeCode(text) : tokenizeLine(text);
  return { source, shell, text, tokens };
}

describe('authorTemplateOf', () => {
  it('reads {x}, <x>, [X] and, outside code blocks, $X as placeholders, spelt out', () => {
    expect(authorTemplateOf(line('inline', 'heat {obj} with {recep}'))).toMatchObject({ key: 'heat {} with {}', names: ['object', 'receptacle'], written: ['{obj}', '{recep}'] });
    expect(authorTemplateOf(line('inline', 'take <object> from <receptacle>'))?.key).toBe('take {} from {}');
    expect(authorTemplateOf(line('inline', 'git clone [REPO_URL]'))?.names).toEqual(['repository_url']);
    expect(authorTemplateOf(line('inline', 'npm install $PKG'))?.names).toEqual(['package']);
  });

  it('leaves the shell its variables, HTML its elements, links their text and code its f-strings', () => {
    expect(authorTemplateOf(line('code', 'echo $OPENAI_API_KEY', true))).toBeNull();
    expect(authorTemplateOf(line('inline', 'cd $HOME'))).toBeNull();
    expect(authorTemplateOf(line('inline', 'wrap it in <div> tags'))).toBeNull();
    expect(authorTemplateOf(line('step', 'open [README](https://x.example)'))).toBeNull();
    expect(authorTemplateOf(line('code', 'print(f"hello {name}")'))).toBeNull();
  });

  it('needs a leading word that acts: not a message the skill prints', () => {
    expect(authorTemplateOf(line('code', 'Tests passing ({n} tests, 0 failures)'))).toBeNull();
    expect(authorTemplateOf(line('code', 'Ready to implement {feature}'))).toBeNull();
    expect(authorTemplateOf(line('inline', '{object} is hot'))).toBeNull();
    expect(authorTemplateOf(line('inline', 'open {receptacle}'))?.key).toBe('open {}');
    // A bracketed label opens a part of a format, not a command; a path opens a command.
    expect(authorTemplateOf(line('step', '[SHOT N | time range]: up to $MAX_SHOTS custom storyboard shots'))).toBeNull();
    expect(authorTemplateOf(line('inline', './run.sh {target}'))?.key).toBe('./run.sh {}');
    expect(authorTemplateOf(line('step', '(optional) {step}: up to three'))).toBeNull();
    // A command may open with a digit, a Windows path or a notebook sigil.
    expect(authorTemplateOf(line('code', '2to3 -w <file>', true))?.key).toBe('2to3 -w {}');
    expect(authorTemplateOf(line('code', '.\\deploy.ps1 <env>', true))?.key).toBe('.\\deploy.ps1 {}');
    expect(authorTemplateOf(line('code', '%pip install <package>', true))?.key).toBe('%pip install {}');
    expect(authorTemplateOf(line('code', '!pip install <package>', true))?.key).toBe('!pip install {}');
    // An option of a list, a quoted value, a prompt, a list marker, a mark or JSON opens no command.
    for (const text of ['--out <file>', '"{x}" is required', '$ npm install {pkg}', '- install {pkg}', '{"name": "{x}"}', '❌ delete {file} from git']) {
      expect(authorTemplateOf(line('inline', text)), text).toBeNull();
    }
  });

  it('refuses two placeholders with nothing between them, and imports or assignments', () => {
    expect(authorTemplateOf(line('inline', 'move {a}{b}'))).toBeNull();
    expect(authorTemplateOf(line('code', 'from {module} import x'))).toBeNull();
  });
});

describe('names and spellings', () => {
  it('canonicalSlotName: snake case, abbreviations spelt out, your- dropped', () => {
    expect(canonicalSlotName('recep')).toBe('receptacle');
    expect(canonicalSlotName('targetObj')).toBe('target_object');
    expect(canonicalSlotName('your-repo-dir')).toBe('repository_directory');
    expect(canonicalSlotName('OUTPUT_FILE')).toBe('output_file');
  });

  it('unifySpellings: the name most spellings use', () => {
    const spellings = ['go to {recep}', 'go to {receptacle}', 'go to <receptacle>', 'go to {location}'].map((t) => authorTemplateOf(line('inline', t))!);
    expect(unifySpellings(spellings)).toEqual({ template: 'go to {receptacle}', slots: ['receptacle'] });
  });

  it('stripActionLabel drops a label before an environment action', () => {
    expect(stripActionLabel('Action: go to fridge 1')).toBe('go to fridge 1');
    expect(stripActionLabel('go to fridge 1')).toBe('go to fridge 1');
  });
});

describe('matchConcrete', () => {
  const t = { template: 'open {receptacle}', slots: ['receptacle'] };
  it('binds the bare value of a concrete line, label aside', () => {
    expect(matchConcrete(t, 'Action: open drawer 2')).toEqual({ receptacle: 'drawer 2' });
    expect(matchConcrete({ template: 'put {object} in/on {receptacle}', slots: ['object', 'receptacle'] }, 'put mug 1 in/on shelf 2')).toEqual({ object: 'mug 1', receptacle: 'shelf 2' });
  });
  it('refuses values that are program arguments', () => {
    expect(matchConcrete(t, 'open -a "Google Chrome"')).toBeNull();
    expect(matchConcrete(t, 'open file.txt | grep x')).toBeNull();
    // A flag after the value is another command (`reorder <orderCode> --confirm`), and an elided
    // value (`reorder ... --confirm`) states the template again.
    const reorder = { template: 'ordercli foodora reorder {order_code}', slots: ['order_code'] };
    expect(matchConcrete(reorder, 'ordercli foodora reorder ... --confirm')).toBeNull();
    expect(matchConcrete(reorder, 'ordercli foodora reorder 8812 --confirm')).toBeNull();
    expect(matchConcrete(reorder, 'ordercli foodora reorder …')).toBeNull();
    expect(matchConcrete(reorder, 'ordercli foodora reorder 8812')).toEqual({ order_code: '8812' });
    // An ellipsis inside a value is part of it.
    expect(matchConcrete({ template: 'git diff {range}', slots: ['range'] }, 'git diff main...feature')).toEqual({ range: 'main...feature' });
    const pip = { template: 'pip install {package}', slots: ['package'] };
    for (const text of ['pip install numpy...', 'pip install ...numpy', 'pip install numpy pandas…']) expect(matchConcrete(pip, text), text).toBeNull();
  });
  it('refuses values that read as source code', () => {
    const use = { template: 'use {tool}', slots: ['tool'] };
    expect(matchConcrete(use, 'use solana_program::{')).toBeNull();
    expect(matchConcrete(use, 'use std::io')).toBeNull();
    expect(matchConcrete(use, 'use x = 1')).toBeNull();
    expect(matchConcrete(use, 'use desklamp 1')).toEqual({ tool: 'desklamp 1' });
  });
  it('refuses a value that is a placeholder itself: another spelling, not a call', () => {
    expect(matchConcrete(t, 'open [container]')).toBeNull();
    expect(matchConcrete(t, 'open OBJ')).toBeNull();
    expect(matchConcrete(t, 'open TV 1')).toEqual({ receptacle: 'TV 1' });
  });
  it('leaves a line that says more than the template to the template that says it', () => {
    expect(matchConcrete({ template: 'use {tool}', slots: ['tool'] }, 'use thermometer on metal fork')).toBeNull();
    expect(matchConcrete({ template: 'use {tool}', slots: ['tool'] }, 'use OBJ on OBJ')).toBeNull();
    expect(matchConcrete({ template: 'use {tool} on {content}', slots: ['tool', 'content'] }, 'use thermometer on metal fork')).toEqual({ tool: 'thermometer', content: 'metal fork' });
    expect(matchConcrete({ template: 'look at {container}', slots: ['container'] }, 'look at blast furnace')).toEqual({ container: 'blast furnace' });
  });
  it('gives a path only to a slot whose name says it holds one', () => {
    expect(matchConcrete({ template: 'use {tool}', slots: ['tool'] }, 'use exploit/windows/smb/ms17_010')).toBeNull();
    expect(matchConcrete({ template: 'open {file}', slots: ['file'] }, 'open docs/intro.md')).toEqual({ file: 'docs/intro.md' });
  });
});
