import type { LoadProfile } from './load-profile';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The load profile as an SVG line chart (README "Load profile"): the average weekday and weekend
 * day by hour in kW, with a title and description for screen readers (role="img",
 * aria-labelledby), each point titled with its value, and the peak, load factor and base load in
 * the description.
 */
export function loadProfileSvg(p: LoadProfile, title: string): string {
  const W = 720;
  const H = 360;
  const m = { left: 60, right: 20, top: 50, bottom: 50 };
  const values = [...p.weekday_by_hour, ...p.weekend_by_hour].filter((v): v is number => v !== null);
  const max = Math.max(1, ...values) * 1.1;
  const x = (h: number) => m.left + (h / 23) * (W - m.left - m.right);
  const y = (v: number) => H - m.bottom - (v / max) * (H - m.top - m.bottom);
  const f = (n: number) => n.toFixed(1);
  const series = (name: string, data: Array<number | null>, color: string, dash: string) => {
    const pts = data.map((v, h) => (v === null ? null : { h, v })).filter((q): q is { h: number; v: number } => q !== null);
    const line = pts.map((q) => `${f(x(q.h))},${f(y(q.v))}`).join(' ');
    const dots = pts
      .map(
        (q) =>
          `<circle cx="${f(x(q.h))}" cy="${f(y(q.v))}" r="3" fill="${color}" data-hour="${q.h}" data-kw="${q.v}">` +
          `<title>${esc(name)} ${String(q.h).padStart(2, '0')}:00: ${q.v} kW</title></circle>`,
      )
      .join('');
    return `<g class="${name.toLowerCase()}"><polyline fill="none" stroke="${color}" stroke-width="2" stroke-dasharray="${dash}" points="${line}"/>${dots}</g>`;
  };
  const ticks = Array.from({ length: 5 }, (_, i) => (max / 1.1) * (i / 4));
  const desc =
    p.readings === 0
      ? 'No interval readings in this range.'
      : `Average kW by hour of day, weekdays and weekends, from ${p.readings} readings of ${p.interval_minutes} minutes. ` +
        `Peak ${p.peak_kw} kW at ${p.peak_at}; load factor ${p.load_factor}; base load ${p.base_load_kw} kW; ` +
        `after-hours share ${p.after_hours_share}.`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="lp-title lp-desc" font-family="sans-serif" font-size="12">`,
    `<title id="lp-title">${esc(title)}</title>`,
    `<desc id="lp-desc">${esc(desc)}</desc>`,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    `<text x="${m.left}" y="24" font-size="16" fill="#111111">${esc(title)}</text>`,
    `<line x1="${m.left}" y1="${H - m.bottom}" x2="${W - m.right}" y2="${H - m.bottom}" stroke="#333333"/>`,
    `<line x1="${m.left}" y1="${m.top}" x2="${m.left}" y2="${H - m.bottom}" stroke="#333333"/>`,
    ...ticks.map((v) => `<text x="${m.left - 6}" y="${f(y(v) + 4)}" text-anchor="end" fill="#333333">${f(v)}</text>`),
    ...[0, 3, 6, 9, 12, 15, 18, 21, 23].map(
      (h) => `<text x="${f(x(h))}" y="${H - m.bottom + 16}" text-anchor="middle" fill="#333333">${String(h).padStart(2, '0')}:00</text>`,
    ),
    `<text x="${W / 2}" y="${H - 10}" text-anchor="middle" fill="#333333">Hour of day (local time)</text>`,
    `<text x="16" y="${H / 2}" transform="rotate(-90 16 ${H / 2})" text-anchor="middle" fill="#333333">Average kW</text>`,
    series('Weekday', p.weekday_by_hour, '#1f5fa8', 'none'),
    series('Weekend', p.weekend_by_hour, '#c2410c', '6 4'),
    `<g font-size="12"><line x1="${W - 200}" y1="30" x2="${W - 176}" y2="30" stroke="#1f5fa8" stroke-width="2"/><text x="${W - 170}" y="34" fill="#111111">Weekday</text>`,
    `<line x1="${W - 110}" y1="30" x2="${W - 86}" y2="30" stroke="#c2410c" stroke-width="2" stroke-dasharray="6 4"/><text x="${W - 80}" y="34" fill="#111111">Weekend</text></g>`,
    '</svg>',
  ].join('\n');
}
