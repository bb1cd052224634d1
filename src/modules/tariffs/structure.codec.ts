import type { Schedule12x24, TariffStructure } from './tariff.model';

/**
 * Storage form of a TariffStructure: identical except that each 12x24 schedule
 * is 12 strings of 24 base-36 digits (one period index per hour). The jsonb is
 * then about a quarter of the size, which makes the first-start import on
 * embedded PGlite about four times faster. A schedule with an index of 36 or
 * more stays as arrays (decode accepts both forms).
 */
type StoredSchedule = string[] | Schedule12x24;

export type StoredStructure = Omit<TariffStructure, 'energy' | 'demandTou'> & {
  energy: (Omit<NonNullable<TariffStructure['energy']>, 'weekday' | 'weekend'> & { weekday: StoredSchedule; weekend: StoredSchedule }) | null;
  demandTou: (Omit<NonNullable<TariffStructure['demandTou']>, 'weekday' | 'weekend'> & { weekday: StoredSchedule; weekend: StoredSchedule }) | null;
};

function encodeSchedule(s: Schedule12x24): StoredSchedule {
  if (s.some((row) => row.some((v) => v >= 36))) return s;
  return s.map((row) => row.map((v) => v.toString(36)).join(''));
}

function decodeSchedule(s: StoredSchedule): Schedule12x24 {
  return s.map((row: string | number[]) => (typeof row === 'string' ? Array.from(row, (c) => parseInt(c, 36)) : row));
}

export function encodeStructure(s: TariffStructure): StoredStructure {
  return {
    ...s,
    energy: s.energy && { ...s.energy, weekday: encodeSchedule(s.energy.weekday), weekend: encodeSchedule(s.energy.weekend) },
    demandTou: s.demandTou && { ...s.demandTou, weekday: encodeSchedule(s.demandTou.weekday), weekend: encodeSchedule(s.demandTou.weekend) },
  };
}

export function decodeStructure(s: StoredStructure): TariffStructure {
  return {
    ...s,
    energy: s.energy && { ...s.energy, weekday: decodeSchedule(s.energy.weekday), weekend: decodeSchedule(s.energy.weekend) },
    demandTou: s.demandTou && { ...s.demandTou, weekday: decodeSchedule(s.demandTou.weekday), weekend: decodeSchedule(s.demandTou.weekend) },
  };
}
