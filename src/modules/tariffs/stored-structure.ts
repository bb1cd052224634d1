import type { Schedule12x24, TariffStructure } from './tariff.model';

/** Fields added after rows were first stored: a stored structure may lack them (read as null, not published). */
type AddedLater = 'demandCoincident' | 'additionalMeterCharge' | 'reactivePowerCharge' | 'demandRatchet';

/**
 * A TariffStructure as read from tariffs.structure: written as is (schedules as number arrays),
 * but a row may predate a field, or hold a schedule in the legacy base-36 form (see below).
 */
export type StoredStructure = Omit<TariffStructure, AddedLater> & Partial<Pick<TariffStructure, AddedLater>>;

type StoredSchedule = Schedule12x24 | string[];

/**
 * Rows imported before REFERENCE_DATA_VERSION 2026-11-26.2 hold each month of a schedule as a
 * string of 24 base-36 digits. The web process's start-up re-import rewrites them, but worker and
 * scheduler processes do not import and may read them until it has. Read only: delete once no
 * deployment still holds data of an older version.
 */
function readLegacyBase36Schedule(s: StoredSchedule): Schedule12x24 {
  return s.map((row: number[] | string) => (typeof row === 'string' ? Array.from(row, (c) => parseInt(c, 36)) : row));
}

export function readStoredStructure(s: StoredStructure): TariffStructure {
  const coincident = s.demandCoincident ?? null;
  return {
    ...s,
    energy: s.energy && {
      ...s.energy,
      weekday: readLegacyBase36Schedule(s.energy.weekday),
      weekend: readLegacyBase36Schedule(s.energy.weekend),
    },
    demandTou: s.demandTou && {
      ...s.demandTou,
      weekday: readLegacyBase36Schedule(s.demandTou.weekday),
      weekend: readLegacyBase36Schedule(s.demandTou.weekend),
    },
    demandCoincident: coincident && { ...coincident, schedule: readLegacyBase36Schedule(coincident.schedule) },
    additionalMeterCharge: s.additionalMeterCharge ?? null,
    reactivePowerCharge: s.reactivePowerCharge ?? null,
    demandRatchet: s.demandRatchet ?? null,
  };
}
