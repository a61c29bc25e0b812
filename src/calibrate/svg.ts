/**
 * The operating curve as a standalone SVG (no fonts, scripts or external references): per τ_auto,
 * recall on the positives, the observed false-promotion rate and its upper confidence bound, and
 * the review-load bound, with the FP target as a dashed line and the chosen τ_auto marked.
 * A pure function of the calibration record; numbers are printed with fixed decimals so the same
 * record gives the same bytes.
 */
import type { Calibration } from './calibrate.js';

const W = 640;
const H = 400;
const M = { left: 56, right: 170, top: 40, bottom: 48 };
const PW = W - M.left - M.right;
const PH = H - M.top - M.bottom;

const x = (tau: number) => M.left + ((tau - 0.1) / 0.85) * PW;
const y = (rate: number) => M.top + (1 - rate) * PH;
const f = (n: number) => n.toFixed(1);

const SERIES = [
  { key: 'recall', label: 'recall (positives auto)', color: '#1f77b4', dash: '' },
  { key: 'fpUpper', label: 'false promotion, 95% bound', color: '#d62728', dash: '' },
  { key: 'fpRate', label: 'false promotion, observed', color: '#d62728', dash: '4 3' },
  { key: 'reviewUpper', label: 'review load, 95% bound', color: '#ff7f0e', dash: '1 3' },
] as const;

function escape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function renderCurveSvg(cal: Calibration): string {
  const L: string[] = [];
  L.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`);
  L.push(`<rect width="${W}" height="${H}" fill="#fff"/>`);
  const lib = cal.libraries[0]?.label ?? '';
  const negatives = cal.classes.filter((c) => c.kind === 'negative').reduce((a, c) => a + c.built, 0);
  const positives = cal.classes.filter((c) => c.kind === 'positive').reduce((a, c) => a + c.built, 0);
  L.push(`<text x="${M.left}" y="20" font-size="13" font-weight="bold">${escape(`Operating curve: ${lib} (${negatives} negatives, ${positives} positives, seed ${cal.options.seed})`)}</text>`);
  // Axes and grid.
  for (let i = 0; i <= 10; i += 2) {
    const yy = y(i / 10);
    L.push(`<line x1="${M.left}" y1="${f(yy)}" x2="${M.left + PW}" y2="${f(yy)}" stroke="#eee"/>`);
    L.push(`<text x="${M.left - 6}" y="${f(yy + 4)}" text-anchor="end">${i * 10}%</text>`);
  }
  for (let k = 2; k <= 19; k++) {
    const tau = k / 20;
    if (k % 2 === 0) L.push(`<text x="${f(x(tau))}" y="${M.top + PH + 16}" text-anchor="middle">${tau.toFixed(1)}</text>`);
    L.push(`<line x1="${f(x(tau))}" y1="${M.top + PH}" x2="${f(x(tau))}" y2="${M.top + PH + 4}" stroke="#333"/>`);
  }
  L.push(`<rect x="${M.left}" y="${M.top}" width="${PW}" height="${PH}" fill="none" stroke="#333"/>`);
  L.push(`<text x="${M.left + PW / 2}" y="${H - 10}" text-anchor="middle">τ_auto (τ_rev: the best feasible value for each τ_auto)</text>`);
  // Target.
  const ty = y(cal.options.fpTarget);
  L.push(`<line x1="${M.left}" y1="${f(ty)}" x2="${M.left + PW}" y2="${f(ty)}" stroke="#555" stroke-dasharray="6 4"/>`);
  L.push(`<text x="${M.left + PW - 4}" y="${f(ty - 4)}" text-anchor="end" fill="#555">FP target ${(cal.options.fpTarget * 100).toFixed(1)}%</text>`);
  // Chosen point.
  if (cal.choice.kind === 'chosen') {
    const cx = x(cal.choice.tauAuto);
    L.push(`<line x1="${f(cx)}" y1="${M.top}" x2="${f(cx)}" y2="${M.top + PH}" stroke="#2ca02c" stroke-width="2"/>`);
    L.push(`<text x="${f(cx + 4)}" y="${M.top + 12}" fill="#2ca02c">chosen (${cal.choice.tauAuto.toFixed(2)}, ${cal.choice.tauRev.toFixed(2)})</text>`);
  } else {
    L.push(`<text x="${M.left + 8}" y="${M.top + 14}" fill="#d62728">${escape(`no point chosen (${cal.choice.reason}): current policy kept`)}</text>`);
  }
  // Series.
  SERIES.forEach((s, i) => {
    const pts = cal.curve.map((p) => `${f(x(p.tauAuto))},${f(y(p[s.key]))}`).join(' ');
    L.push(`<polyline points="${pts}" fill="none" stroke="${s.color}" stroke-width="2"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''}/>`);
    for (const p of cal.curve) L.push(`<circle cx="${f(x(p.tauAuto))}" cy="${f(y(p[s.key]))}" r="2.5" fill="${p.feasible ? s.color : '#fff'}" stroke="${s.color}"/>`);
    const ly = M.top + 10 + i * 18;
    L.push(`<line x1="${W - M.right + 12}" y1="${ly}" x2="${W - M.right + 36}" y2="${ly}" stroke="${s.color}" stroke-width="2"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''}/>`);
    L.push(`<text x="${W - M.right + 40}" y="${ly + 4}">${escape(s.label)}</text>`);
  });
  L.push(`<text x="${W - M.right + 12}" y="${M.top + 10 + SERIES.length * 18 + 4}" fill="#555">filled dot: feasible point</text>`);
  L.push('</svg>');
  return L.join('\n') + '\n';
}
