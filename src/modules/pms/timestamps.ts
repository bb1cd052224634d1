/**
 * An ISO 8601 date-time with a zone (`Z`, `+02:00`, `+0200`, `+02`) as microseconds since the
 * epoch: PostgreSQL's precision, which JavaScript dates (milliseconds) lack, so two events a few
 * microseconds apart keep their order. Fractions beyond microseconds are rounded, as PostgreSQL
 * rounds them. Pure.
 */
export function isoToMicros(ts: string): bigint {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}(?::?\d{2})?)$/i.exec(ts);
  if (!m) throw new Error(`not an ISO 8601 date-time with a zone: ${ts}`);
  const [, y, mo, d, h, mi, s, frac = '', zone] = m;
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0 to 99 as 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  date.setUTCHours(Number(h), Number(mi), Number(s));
  const wholeSeconds = BigInt(date.getTime() / 1000);
  const digits = (frac + '0000000').slice(0, 7);
  const micros = BigInt(Math.round(Number(digits) / 10));
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const [hh, mm = '0'] = zone.slice(1).includes(':') ? zone.slice(1).split(':') : [zone.slice(1, 3), zone.slice(3) || '0'];
    offsetMinutes = sign * (Number(hh) * 60 + Number(mm));
  }
  return (wholeSeconds - BigInt(offsetMinutes * 60)) * 1_000_000n + micros;
}
