import type { UtilityType, VersionSource } from '../tariff.model';
import { toDetail, toSummary } from '../present';
import type { StoredCustomTariff, VersionRow } from './repository';
import { shownVersion, tariffOfVersion } from './versions';

/** A custom tariff's detail: the version shown (in force on `today`, else the first) at the top, then every version. */
export function present(stored: StoredCustomTariff, today: string) {
  const detail = toDetail(tariffOfVersion(stored, shownVersion(stored, today)));
  return {
    ...detail,
    utility_id: stored.row.utilityId,
    custom: true,
    created_at: stored.row.createdAt.toISOString(),
    versions: stored.versions.map((v: VersionRow, i) => {
      const d = toDetail(tariffOfVersion(stored, i));
      return {
        effective_date: v.effectiveDate,
        expiration_date: d.expiration_date,
        source: v.source as VersionSource,
        assumptions: v.assumptions,
        energy_rates: d.energy_rates,
        demand_rates: d.demand_rates,
        fixed_charges: d.fixed_charges,
        riders: d.riders,
        minimum_charge: d.minimum_charge,
        created_at: v.createdAt.toISOString(),
      };
    }),
  };
}

export type CustomTariffDetail = ReturnType<typeof present>;

/** A custom tariff as a list or search row (the version shown on `today`). */
export function summary(stored: StoredCustomTariff, today: string) {
  const t = tariffOfVersion(stored, shownVersion(stored, today));
  return {
    ...toSummary(t),
    utility_id: stored.row.utilityId,
    utility_type: stored.row.utilityType as UtilityType,
    unit: stored.row.unit,
    custom: true,
    versions: stored.versions.length,
    created_at: stored.row.createdAt.toISOString(),
  };
}

export type CustomTariffSummary = ReturnType<typeof summary>;
