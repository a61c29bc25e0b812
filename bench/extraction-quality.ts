/**
 * Extraction quality of a build (issue 19), from its artifacts: promoted contracts, their slots
 * and how many have generic names (target, items, value, … and their _2, _3 forms), call-site
 * bindings that carry quote characters or backticks, ids that end in a running number, contracts
 * that share a template set, the largest cluster against the units, and for action contracts
 * (one line each) the o200k tokens of each source line against the invoke that would replace it.
 *
 *   node build/bench/extraction-quality.js <dist>
 */
import fs from 'node:fs';
import path from 'node:path';

import { GENERIC_SLOT_NAMES } from '../src/extract/slots.js';
import { formatInvoke } from '../src/rewrite/invoke.js';
import { slotsBlanked } from '../src/rewrite/templates.js';
import { makeTokenCounter, readO200kRankFile } from '../src/text/o200k.js';

/** A generic slot name (extract/slots.ts), or one of them numbered (`target_2`). */
const isGeneric = (name: string) => GENERIC_SLOT_NAMES.has(name.replace(/_\d+$/, ''));

function main(): number {
  const dist = process.argv[2];
  if (!dist) {
    process.stderr.write('usage: node build/bench/extraction-quality.js <dist>\n');
    return 2;
  }
  const read = (f: string) => JSON.parse(fs.readFileSync(path.join(dist, f), 'utf8'));
  const candidates = read('candidates.json').candidates as { cluster: { id: string; units?: unknown }; members: unknown[]; profile: { decision: string; contract: string | null } }[];
  const report = read('report.json');
  const promoted = candidates.filter((c) => c.profile.decision === 'auto_promote').map((c) => read(`contracts/${c.profile.contract}.json`) as { id: string; scope?: string; input_schema: { name: string }[]; templates: { template: string; slots: string[]; instances?: { text: string; bindings: Record<string, string> }[] }[]; call_sites: { bindings: Record<string, string> }[] });
  const review = candidates.filter((c) => c.profile.decision === 'review').length;
  const slots = promoted.flatMap((c) => c.input_schema.map((f) => f.name));
  const generic = slots.filter(isGeneric);
  const lib = read('refactored_library.json');
  const bindings = [...lib.call_sites, ...(lib.dropped_call_sites ?? [])].length;
  // What the alignment bound: every template instance in the source units, and every call-site.
  const allBindings = promoted.flatMap((c) => [...c.call_sites.flatMap((cs) => Object.values(cs.bindings)), ...c.templates.flatMap((t) => (t.instances ?? []).flatMap((i) => Object.values(i.bindings)))]);
  const quoted = allBindings.filter((v) => /^["'`]|["'`]$/.test(v));
  const numbered = promoted.filter((c) => /-\d+$/.test(c.id));
  const byTemplates = new Map<string, string[]>();
  for (const c of promoted) {
    // Slot names aside: `go to {receptacle}` and `go to {destination}` are one template.
    const key = [...new Set(c.templates.map(slotsBlanked))].sort().join('\n');
    byTemplates.set(key, [...(byTemplates.get(key) ?? []), c.id]);
  }
  const shared = [...byTemplates.values()].filter((ids) => ids.length > 1);
  const largest = Math.max(0, ...candidates.map((c) => c.members.length));
  const units = report.parse?.units ?? 0;
  // Action contracts: would an invoke in place of the line pay?
  const count = makeTokenCounter(readO200kRankFile());
  const pairs = promoted.filter((c) => c.scope === 'action').flatMap((c) => (c.templates[0]?.instances ?? []).map((i) => ({ line: count(i.text), invoke: count('`' + formatInvoke(c.id, i.bindings, c.templates[0]!.slots) + '`') })));
  const median = (xs: number[]) => (xs.length ? xs.slice().sort((a, b) => a - b)[xs.length >> 1]! : 0);
  const out = [
    `clusters ${candidates.length}, auto_promote ${promoted.length}, review ${review}`,
    `slots ${slots.length}, generic ${generic.length} (${slots.length ? ((100 * generic.length) / slots.length).toFixed(1) : '0'}%): ${[...new Set(generic)].slice(0, 8).join(', ')}`,
    `bindings of promoted contracts (template instances and call-sites) ${allBindings.length}, with quotes or backticks ${quoted.length}${quoted.length ? ` (e.g. ${JSON.stringify(quoted[0])})` : ''}; call-sites and dropped ${bindings}`,
    `ids ending in a number ${numbered.length}${numbered.length ? `: ${numbered.slice(0, 6).map((c) => c.id).join(', ')}` : ''}`,
    `contracts sharing a template set ${shared.reduce((a, ids) => a + ids.length, 0)}${shared.length ? `: ${shared.slice(0, 3).map((ids) => ids.join(' = ')).join('; ')}` : ''}`,
    `largest cluster ${largest} units of ${units} (${units ? ((100 * largest) / units).toFixed(2) : '0'}%)`,
    `action contracts' source lines ${pairs.length}: median ${median(pairs.map((p) => p.line))} o200k tokens, their invokes median ${median(pairs.map((p) => p.invoke))}; invokes shorter than the line ${pairs.filter((p) => p.invoke < p.line).length}`,
  ];
  process.stdout.write(out.join('\n') + '\n');
  return 0;
}

process.exit(main());
