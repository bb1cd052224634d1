/**
 * The tenant statement as a printable HTML page: self-contained (inline style, no scripts, no
 * external assets), every text HTML-escaped (tenant names and property fields are user input).
 */
import type { Statement } from './statement';
import { partDates, residentName, type TurnoverStatement } from './statement.turnover';
import { percent2, percentAsWritten, quantity, usd } from './format';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]);
}

const UTILITY_NAMES: Record<string, string> = { electric: 'Electricity', gas: 'Gas', water: 'Water', sewer: 'Sewer', trash: 'Trash' };
const METHOD_NAMES: Record<string, string> = {
  sqft: 'floor area (sqft)',
  occupant_count: 'number of occupants',
  unit_count: 'equal shares per unit',
  custom_weight: 'agreed weights',
  sqft_occupant: 'floor area and occupants, blended',
};
const FACTOR_NAMES: Record<string, string> = {
  sqft: 'Floor area (sqft)',
  occupant_count: 'Occupants',
  custom_weight: 'Weight',
  unit_count: 'Units',
};

const STYLE = `
body{font:14px/1.45 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#111;margin:0;background:#f4f4f4}
main{max-width:760px;margin:24px auto;background:#fff;padding:32px 40px;border:1px solid #ddd}
h1{font-size:22px;margin:0 0 4px}h2{font-size:15px;margin:24px 0 8px;border-bottom:1px solid #ccc;padding-bottom:4px}
.muted{color:#555}table{border-collapse:collapse;width:100%}td,th{padding:5px 8px;text-align:left;border-bottom:1px solid #eee}
td.amount,th.amount{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.total td{font-weight:700;border-top:2px solid #111;border-bottom:none}
ol.formula{padding-left:20px;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px}
footer{margin-top:28px;font-size:12px;color:#666}
header{display:flex;justify-content:space-between;gap:16px}.invoice{text-align:right}
@media print{body{background:#fff;font-size:11.5px;line-height:1.3}main{margin:0;border:none;padding:0;max-width:none}
h2{margin:12px 0 4px}td,th{padding:2px 6px}ol.formula{font-size:10.5px}footer{margin-top:12px}
main{break-inside:avoid}@page{size:letter;margin:12mm}}
`;

function row(label: string, value: string, cls = ''): string {
  return `<tr${cls ? ` class="${cls}"` : ''}><td>${escapeHtml(label)}</td><td class="amount">${escapeHtml(value)}</td></tr>`;
}

type Factors = Statement['share']['factors'];

function factorRows(factors: Factors): string {
  return factors
    .map((f) => {
      const weight = factors.length > 1 ? ` (weight ${percentAsWritten(f.weight_percent)})` : '';
      const of = f.total_of === 'billed_units' ? 'occupied units' : 'all units';
      // As entered: the whole sqft or head count (and the occupancy table's row), and the whole factor-days when anyone moved.
      const counted = f.occupancy_factor
        ? `${quantity(f.occupancy_factor.occupants)} occupants: factor ${quantity(f.occupancy_factor.factor)}`
        : quantity(f.value);
      const value =
        f.total_factor_kwh !== undefined
          ? `${counted} x ${quantity(f.occupied_kwh ?? 0)} kWh (${f.occupied_days} days) of ${quantity(f.total_factor_kwh)} factor-kWh (${of})`
          : f.total_factor_days === undefined
            ? `${counted} of ${quantity(f.total)} (${of})`
            : `${counted} x ${f.occupied_days} days of ${quantity(f.total_factor_days)} factor-days (${of})`;
      return row(`${FACTOR_NAMES[f.factor] ?? f.factor}${weight}`, value);
    })
    .join('');
}

/** The charge rows of a statement or of one occupancy's part, ending with `totalLabel`. */
function chargeRows(ch: Statement['charges'], totalLabel: string): string {
  return `${ch.charge_limit ? row('Your share of the bill', usd(ch.share_charge)) : ''}
${ch.charge_limit === 'max_charge' ? row('Base charge (maximum charge; the owner pays the rest)', usd(ch.base_charge)) : ''}
${ch.charge_limit === 'min_charge' ? row('Base charge (minimum charge)', usd(ch.base_charge)) : ''}
${ch.charge_limit ? '' : row('Base charge', usd(ch.base_charge))}
${row(`Admin fee (${percentAsWritten(ch.admin_fee_rate * 100)})`, usd(ch.admin_fee))}
${ch.billing_fee > 0 ? row('Billing fee', usd(ch.billing_fee)) : ''}
${row(totalLabel, usd(ch.total_charge), 'total')}`;
}

/** The page around a statement's own sections: head, title, property, who is billed, the master bill, and the footer. */
function page(s: Statement, invoice: string | null, who: { heading: string; rows: string }, sections: string): string {
  const p = s.property;
  const u = s.unit;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`Utility statement: ${p.name}, unit ${u.unit_id}, ${s.billing_period_start} to ${s.billing_period_end}`)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<header><div>
<h1>${escapeHtml(`${UTILITY_NAMES[s.utility_type] ?? s.utility_type} statement`)}</h1>
<div class="muted">${escapeHtml(`${p.name}, ${p.address}, ${p.city}, ${p.state} ${p.zip_code}`)}</div>
</div><div class="invoice">${invoice ? `<div>${escapeHtml(`Invoice ${invoice}`)}</div>` : ''}${s.due_date ? `<div><strong>${escapeHtml(`Due ${s.due_date}`)}</strong></div>` : ''}</div></header>
<h2>${who.heading}</h2>
<table>
${who.rows}
</table>
<h2>Master bill</h2>
<table>
${row('Master-meter bill', usd(s.master_bill.total_amount))}
${row(`Common areas (${percentAsWritten(s.master_bill.common_area_percent)}), paid by the owner`, `- ${usd(s.master_bill.common_area_deduction)}`)}
${row('Billable to the units', usd(s.master_bill.billable_amount), 'total')}
</table>
${sections}
<footer>${escapeHtml(
    `Calculation ${s.calculation_id}, ${s.calculated_at}. Vacancy policy: ${
      s.vacancy_policy === 'redistribute'
        ? 'vacant units are not billed; the occupied units share the billable amount'
        : 'vacant units are not billed; the owner pays their shares'
    }. Rounding: ${s.rounding === 'exact' ? 'largest remainder (charges add up to the cent)' : 'each charge to the cent'}.`,
  )}</footer>
</main>
</body>
</html>
`;
}

const formulaList = (lines: readonly string[]) => `<ol class="formula">
${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('\n')}
</ol>`;

const period = (s: Statement) => `${s.billing_period_start} to ${s.billing_period_end} (${s.period_days} days)`;

function renderOneLine(s: Statement): string {
  const u = s.unit;
  const tenant = u.tenant_name === '' ? '(vacant)' : u.tenant_name;
  const tenantRows = `${row('Unit', u.unit_id)}${row('Tenant', tenant)}${row('Billing period', period(s))}
${row('Days occupied', u.is_vacant ? 'vacant' : `${u.occupied_days} of ${s.period_days}`)}`;
  return page(
    s,
    s.invoice_number,
    { heading: 'Tenant', rows: tenantRows },
    `<h2>Your share</h2>
<table>
${row('Allocated by', METHOD_NAMES[s.method] ?? s.method)}
${factorRows(s.share.factors)}
${row('Your share', percent2(s.share.allocation_percent), 'total')}
</table>
<h2>Your charges</h2>
<table>
${chargeRows(s.charges, 'Total due')}
</table>
<h2>How it was calculated</h2>
${formulaList(s.formula)}`,
  );
}

/** A unit that turned over: each occupancy's part (its days, share, charges and formula), then the unit total. */
function renderTurnover(s: TurnoverStatement): string {
  const tenantRows = `${row('Unit', s.unit.unit_id)}${row('Residents', s.occupancies.map((p) => residentName(p.unit)).join(', '))}
${row('Billing period', period(s))}${row('Allocated by', METHOD_NAMES[s.method] ?? s.method)}`;
  const parts = s.occupancies.map((p) => {
    const { from, to } = partDates(s, p.unit);
    return `<h2>${escapeHtml(`${residentName(p.unit)}: ${from} to ${to}`)}</h2>
<table>
${p.invoice_number ? row('Invoice', p.invoice_number) : ''}
${row('Days occupied', p.unit.is_vacant ? 'vacant' : `${p.unit.occupied_days} of ${s.period_days}`)}
${factorRows(p.share.factors)}
${row('Share', percent2(p.share.allocation_percent))}
${chargeRows(p.charges, 'Subtotal')}
</table>
${formulaList(p.formula.slice(1))}`;
  });
  return page(
    s,
    null,
    { heading: 'Unit and residents', rows: tenantRows },
    `${parts.join('\n')}
<h2>Unit total</h2>
<table>
${row('Share of the unit', percent2(s.share.allocation_percent))}
${row('Base charges', usd(s.charges.base_charge))}
${row('Admin fees', usd(s.charges.admin_fee))}
${s.charges.billing_fee > 0 ? row('Billing fees', usd(s.charges.billing_fee)) : ''}
${row('Unit total', usd(s.charges.total_charge), 'total')}
</table>
${formulaList(s.formula)}`,
  );
}

export function renderStatementHtml(s: Statement | TurnoverStatement): string {
  return 'occupancies' in s ? renderTurnover(s) : renderOneLine(s);
}
