import type { PropertyListRow, PropertyRow } from './repository';
import type { PropertyType } from './states';
import { zoneOfProperty } from './timezone';

/** The property list item (GET /pm/properties). */
export function presentListItem(r: PropertyListRow) {
  return {
    id: r.id,
    name: r.name,
    address: r.address,
    city: r.city,
    state: r.state,
    zip_code: r.zipCode,
    property_type: r.propertyType as PropertyType,
    sqft: r.sqft,
    unit_count: r.unitCount,
    monthly_usage_kwh: r.monthlyUsageKwh,
    portfolio_id: r.portfolioId,
  };
}

/** The full property object (unset optionals are null): the list item's fields and the rest. */
export function presentProperty(r: PropertyRow, energyPctOfNoi: number | null) {
  return {
    ...presentListItem(r),
    year_built: r.yearBuilt,
    utility_account_number: r.utilityAccountNumber,
    meter_number: r.meterNumber,
    tariff_id: r.tariffId,
    monthly_demand_kw: r.monthlyDemandKw,
    supply_rate_per_kwh: r.supplyRatePerKwh,
    supply_tariff_id: r.supplyTariffId,
    timezone: zoneOfProperty(r),
    timezone_source: r.timezone === null ? ('zip_code' as const) : ('set' as const),
    has_solar: r.hasSolar,
    solar_capacity_kw: r.solarCapacityKw,
    annual_revenue: r.annualRevenue,
    noi: r.noi,
    energy_pct_of_noi: energyPctOfNoi,
    owner_id: r.ownerId,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}
