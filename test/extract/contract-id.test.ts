/** Contract ids (issue 19 item 5): verb-object from the templates, never numbered. */
import { describe, expect, it } from 'vitest';
import { contractIds, templateWords } from '../../src/extract/contract-id.js';

const t = (template: string) => ({ template, slots: [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!) });
const item = (trigger: string, ...templates: string[]) => ({ trigger, templates: templates.map(t) });

describe('templateWords', () => {
  it('reads the command or verb, its words and its slot names; skips flags, their values and paths', () => {
    expect(templateWords(t('heat {object} with {appliance}'))).toEqual(['heat', 'object', 'with', 'appliance']);
    expect(templateWords(t('pip install --upgrade {package}'))).toEqual(['pip', 'install', 'package']);
    expect(templateWords(t('curl -o out.json {url}'))).toEqual(['curl', 'url']);
    expect(templateWords(t('put {object} in/on {receptacle}'))).toEqual(['put', 'object', 'in', 'receptacle']);
  });

  it('names a script run by its interpreter after the script', () => {
    expect(templateWords(t('python scripts/check_links.py {path}'))).toEqual(['check', 'links', 'path']);
  });
});

describe('contractIds', () => {
  it('gives verb-object ids and, on a collision, more words instead of a number', () => {
    const ids = contractIds([
      item('Heat', 'heat {object} with {appliance}'),
      item('Clone', 'git clone {url}', 'cd {directory}'),
      item('Clone again', 'git clone {url}', 'make install'),
    ]);
    expect(ids[0]).toBe('heat-object-with-appliance');
    expect(ids[1]).toBe('git-clone-url');
    expect(ids[2]).not.toBe(ids[1]);
    expect(ids[2]).toMatch(/^git-clone-url-/);
    expect(ids.some((id) => /-\d+$/.test(id))).toBe(false);
  });

  it('does not end an id on a linking word where its words are cut', () => {
    expect(contractIds([item('Setup', 'Add the Composio MCP server to your {text}: https://rube.app/mcp')])).toEqual(['add-composio-mcp-server']);
    expect(contractIds([item('Move', 'move {object} to {receptacle}')])).toEqual(['move-object-to-receptacle']);
  });

  it('is deterministic', () => {
    const items = [item('a', 'go to {receptacle}'), item('b', 'go to {receptacle}')];
    expect(contractIds(items)).toEqual(contractIds(items));
    expect(new Set(contractIds(items)).size).toBe(2);
  });
});
