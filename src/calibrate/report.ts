/**
 * The calibration report (calibration.md, also printed by the command): the result, the operating
 * curve (SaP table 6 plus recall and the upper bounds), the first-failed check per control class,
 * and the negatives that would be promoted at the chosen point, for audit. Pure over the record.
 */
import type { Calibration } from './calibrate.js';
import { chosenPoint, GATES } from './calibrate.js';
import type { GridPoint } from './grid.js';

const pct = (x: number, d = 1) => `${(x * 100).toFixed(d)}%`;
const tau = (x: number) => x.toFixed(2);

export function describePoint(p: GridPoint): string {
  const n = p.negatives;
  return `false promotions ${n.auto} of ${n.n} negatives (${pct(p.fpRate)}, upper bound ${pct(p.fpUpper, 2)}); recall ${p.positives.auto} of ${p.positives.n} positives (${pct(p.recall)}); negatives reaching review or above ${n.auto + n.review} (upper bound ${pct(p.reviewUpper, 2)}); real candidates ${p.real.auto} auto_promote, ${p.real.review} review`;
}

export function resultLines(cal: Calibration, policyFile: string | null): string[] {
  const L: string[] = [];
  const cur = cal.current;
  const p = chosenPoint(cal);
  if (p) {
    L.push(`**Chosen (τ_auto, τ_rev) = (${tau(p.tauAuto)}, ${tau(p.tauRev)})**: ${describePoint(p)}.`);
  } else if (cal.choice.kind === 'kept') {
    L.push(`**No point chosen (${cal.choice.reason})**: ${cal.choice.message}`);
  }
  L.push('', `Current policy (${tau(cur.tauAuto)}, ${tau(cur.tauRev)}): ${describePoint(cur)}; ${cur.feasible ? 'feasible' : 'not feasible'} at these targets.`);
  if (policyFile) L.push('', `Policy written to \`${policyFile}\`${cal.choice.kind === 'chosen' ? '' : ' (the current policy, unchanged)'}; use it with \`skillc build --policy ${policyFile}\`.`);
  return L;
}

export function renderReport(cal: Calibration, policyFile: string | null): string {
  const L: string[] = ['# skillc calibrate', ''];
  const [own, ...foreign] = cal.libraries;
  L.push(`Calibrated library: **${own!.label}** (${own!.skills} skills, ${own!.poolUnits} units with action lines, ${cal.real.candidates} real candidates of which ${cal.real.reachedScore} pass every gate).`);
  for (const f of foreign) L.push(`Foreign library for A_cross_domain: ${f.label} (${f.skills} skills${f.duplicatesDropped ? `, ${f.duplicatesDropped} identical to skills of the calibrated library left out` : ''}, ${f.poolUnits} units with action lines).`);
  const o = cal.options;
  L.push(`Seed ${o.seed}, ${o.perClass} controls asked per class; one-sided ${Math.round(o.confidence * 100)}% ${o.bound === 'wilson' ? 'Wilson' : 'Clopper–Pearson'} upper bounds; targets: false promotion ≤ ${pct(o.fpTarget)}, review load ≤ ${pct(o.reviewTarget)}.`, '');
  L.push('## Result', '', ...resultLines(cal, policyFile), '');

  L.push('## Operating curve', '');
  L.push('One row per τ_auto with its best τ_rev. n_auto and n_rev count the library\'s real candidates (as in SaP table 6); "neg auto" are false promotions, "neg ≥ rev" negatives a reviewer would see; recall counts positives auto-promoted. The full grid is in calibration.json.', '');
  L.push('| τ_auto | τ_rev | n_auto | n_rev | neg auto | FP | FP bound | neg ≥ rev | review bound | recall | recall ≥ rev | feasible | note |');
  L.push('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|---|');
  const chosen = cal.choice.kind === 'chosen' ? cal.choice : null;
  for (const p of cal.curve) {
    const notes = [];
    if (chosen && p.tauAuto === chosen.tauAuto && p.tauRev === chosen.tauRev) notes.push('**chosen**');
    if (p.tauAuto === cal.current.tauAuto) notes.push(`current τ_auto (τ_rev ${tau(cal.current.tauRev)})`);
    L.push(`| ${tau(p.tauAuto)} | ${tau(p.tauRev)} | ${p.real.auto} | ${p.real.review} | ${p.negatives.auto}/${p.negatives.n} | ${pct(p.fpRate)} | ${pct(p.fpUpper, 2)} | ${p.negatives.auto + p.negatives.review} | ${pct(p.reviewUpper, 2)} | ${pct(p.recall)} | ${pct(p.reviewRecall)} | ${p.feasible ? 'yes' : 'no'} | ${notes.join('; ')} |`);
  }
  L.push('');

  const [a, r] = chosen ? [chosen.tauAuto, chosen.tauRev] : [cal.current.tauAuto, cal.current.tauRev];
  L.push('## First failed check per control class', '');
  L.push(`A gate rejects a control whatever the thresholds; only controls that reach the score can tell thresholds apart. Tiers at (${tau(a)}, ${tau(r)}).`, '');
  L.push(`| class | kind | built | redrawn (no draft) | ${GATES.filter((g) => g !== 'extraction_failed').join(' | ')} | reached score | auto_promote | review | reject |`);
  L.push(`|---|---|---:|---:|${GATES.filter((g) => g !== 'extraction_failed').map(() => '---:').join('|')}|---:|---:|---:|---:|`);
  for (const c of cal.classes) {
    const gates = GATES.filter((g) => g !== 'extraction_failed').map((g) => c.firstFailed[g]);
    L.push(`| ${c.name} | ${c.kind} | ${c.built}/${c.asked} | ${c.extractionRedrawn} | ${gates.join(' | ')} | ${c.firstFailed.score} | ${c.outcome.auto_promote} | ${c.outcome.review} | ${c.outcome.reject} |`);
  }
  L.push('');
  for (const c of cal.classes) L.push(`- ${c.name}: ${c.summary}.${c.shortfall ? ` **${c.shortfall}.**` : ''}`);
  L.push('');

  const promoted = cal.controls.filter((j) => j.kind === 'negative' && j.gate === null && j.score >= r).sort((p, q) => q.score - p.score || (p.id < q.id ? -1 : 1));
  L.push(`## Negatives at review or above at (${tau(a)}, ${tau(r)})`, '');
  if (promoted.length === 0) L.push('None.');
  else {
    L.push('| control | score | tier | units | why it is a negative |', '|---|---:|---|---|---|');
    for (const j of promoted.slice(0, 40)) L.push(`| ${j.id} | ${j.score} | ${j.score >= a ? 'auto_promote' : 'review'} | ${j.units.map((u) => `\`${u}\``).join(', ')} | ${j.note.replace(/\|/g, '\\|')} |`);
    if (promoted.length > 40) L.push('', `… and ${promoted.length - 40} more in calibration.json.`);
  }
  L.push('');
  return L.join('\n');
}
