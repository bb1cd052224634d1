/**
 * The examples /openapi.json shows: one building billed from its configuration to a tenant
 * statement (README example 1: a $1,000.00 water bill, 10 % common area, 5 % admin fee, four
 * units by sqft, one vacant). test/tenant-billing/calculate.test.ts and results.test.ts check that the
 * calculation and the statement are exactly what the API answers for that input.
 */

const PROPERTY_ID = '5f0c7d3e-2b1a-4c55-9d0e-8a7b6c5d4e3f';
const CONFIG_ID = '0b9e8d7c-6a5b-4c3d-8e2f-1a0b9c8d7e6f';
const CALCULATION_ID = 'c4a1e2f3-5b6d-4e7f-8a9b-0c1d2e3f4a5b';

export const configRequest = {
  property_id: PROPERTY_ID,
  method: 'sqft',
  utility_types: ['water', 'sewer'],
  common_area_percent: 10,
  admin_fee_percent: 5,
  billing_day: 1,
};

export const configResponse = {
  id: CONFIG_ID,
  ...configRequest,
  is_active: true,
  vacancy_policy: 'redistribute',
  rounding: 'per_unit',
  sqft_weight_percent: 50,
  methods_by_utility: {},
  occupant_factors: null,
  max_charge: null,
  min_charge: null,
  billing_fee: 0,
  version: 1,
  created_at: '2026-02-03T09:15:00.000Z',
  updated_at: null,
};

/** A lease-addendum change: sewer split by occupants with a factor table, a $3.50 billing fee (version 2). */
export const configPatch = {
  methods_by_utility: { sewer: 'occupant_count' },
  occupant_factors: { 1: 1, 2: 1.6, 3: 2.2, 4: 2.6 },
  billing_fee: 3.5,
};

export const calculateRequest = {
  property_id: PROPERTY_ID,
  billing_config_id: CONFIG_ID,
  billing_period_start: '2026-01-01',
  billing_period_end: '2026-01-31',
  total_amount: 1000,
  utility_type: 'water',
  units: [
    { unit_id: '101', tenant_name: 'Ana Lima', sqft: 1000 },
    { unit_id: '102', tenant_name: 'Ben Okafor', sqft: 750 },
    { unit_id: '103', tenant_name: 'Chen Wei', sqft: 250 },
    { unit_id: '104', tenant_name: '', sqft: 500, is_vacant: true },
  ],
};

/** The calculate-rubs request without units: calculate-from-pms fetches them. */
export const calculateFromPmsRequest = Object.fromEntries(Object.entries(calculateRequest).filter(([key]) => key !== 'units'));

const unit = (
  unitId: string,
  tenant: string,
  sqft: number,
  percent: number,
  base: number,
  fee: number,
  total: number,
  invoice: number,
) => ({
  unit_id: unitId,
  tenant_name: tenant,
  sqft,
  allocation_percent: percent,
  base_charge: base,
  admin_fee: fee,
  total_charge: total,
  is_vacant: false,
  occupied_days: 31,
  invoice_number: `INV-00000${invoice}`,
});

export const calculationResponse = {
  id: CALCULATION_ID,
  property_id: PROPERTY_ID,
  billing_config_id: CONFIG_ID,
  billing_period_start: '2026-01-01',
  billing_period_end: '2026-01-31',
  utility_type: 'water',
  total_amount: 1000,
  common_area_percent: 10,
  common_area_deduction: 100,
  billable_amount: 900,
  admin_fee_rate: 0.05,
  method: 'sqft',
  vacancy_policy: 'redistribute',
  rounding: 'per_unit',
  source: 'request',
  billing_config_version: 1,
  occupant_factors: null,
  max_charge: null,
  min_charge: null,
  billing_fee: 0,
  due_date: '2026-03-01',
  status: 'active',
  supersedes: [],
  superseded_by: null,
  void_reason: null,
  voided_at: null,
  unit_bills: [
    unit('101', 'Ana Lima', 1000, 50, 450, 22.5, 472.5, 1),
    unit('102', 'Ben Okafor', 750, 37.5, 337.5, 16.88, 354.38, 2),
    unit('103', 'Chen Wei', 250, 12.5, 112.5, 5.63, 118.13, 3),
    {
      unit_id: '104',
      tenant_name: '',
      sqft: 500,
      allocation_percent: 0,
      base_charge: 0,
      admin_fee: 0,
      total_charge: 0,
      is_vacant: true,
      occupied_days: 0,
    },
  ],
  units_billed: 3,
  units_vacant: 1,
  vacant_absorption: 180,
  reconciliation: {
    total_amount: 1000,
    common_area_deduction: 100,
    billed_to_tenants: 900,
    admin_fees: 45.01,
    owner_absorbs: 0,
    rounding_difference: 0,
    billing_fees: 0,
    max_charge_absorbed: 0,
    min_charge_added: 0,
  },
  allocation_basis: {
    period_days: 31,
    basis: 'days',
    factors: [{ factor: 'sqft', weight_percent: 100, billed_total: 2000, all_total: 2500 }],
  },
  calculated_at: '2026-02-03T09:20:00.000Z',
};

/** README example 12: an electric bill prorated by the whole-building meter's interval readings. */
export const intervalAllocationBasis = {
  period_days: 10,
  basis: 'intervals',
  meter_id: '7d7e1c2a-3b4c-4d5e-8f90-a1b2c3d4e5f6',
  period_kwh: 7200,
  factors: [
    {
      factor: 'sqft',
      weight_percent: 100,
      billed_total: 2333.3333,
      all_total: 3000,
      billed_factor_kwh: 16800000,
      all_factor_kwh: 21600000,
    },
  ],
};

export const historyPage = {
  items: [
    {
      id: CALCULATION_ID,
      property_id: PROPERTY_ID,
      billing_period_start: '2026-01-01',
      billing_period_end: '2026-01-31',
      utility_type: 'water',
      total_amount: 1000,
      units_billed: 3,
      units_vacant: 1,
      method: 'sqft',
      billing_config_version: 1,
      status: 'active',
      supersedes: [],
      superseded_by: null,
      calculated_at: '2026-02-03T09:20:00.000Z',
    },
  ],
  total: 1,
  page: 1,
  per_page: 20,
  pages: 1,
};

export const statementResponse = {
  calculation_id: CALCULATION_ID,
  invoice_number: 'INV-000002',
  due_date: '2026-03-01',
  property: { id: PROPERTY_ID, name: 'Maple Court', address: '12 Maple St', city: 'Ann Arbor', state: 'MI', zip_code: '48104' },
  billing_period_start: '2026-01-01',
  billing_period_end: '2026-01-31',
  period_days: 31,
  utility_type: 'water',
  method: 'sqft',
  vacancy_policy: 'redistribute',
  rounding: 'per_unit',
  master_bill: { total_amount: 1000, common_area_percent: 10, common_area_deduction: 100, billable_amount: 900 },
  unit: unit('102', 'Ben Okafor', 750, 37.5, 337.5, 16.88, 354.38, 2),
  share: {
    allocation_percent: 37.5,
    factors: [{ factor: 'sqft', value: 750, occupied_days: 31, weight_percent: 100, total: 2000, total_of: 'billed_units' }],
  },
  charges: {
    share_charge: 337.5,
    charge_limit: null,
    base_charge: 337.5,
    admin_fee_rate: 0.05,
    admin_fee: 16.88,
    billing_fee: 0,
    total_charge: 354.38,
  },
  formula: [
    'Billable amount = $1,000.00 - common area 10% ($100.00) = $900.00',
    'Your share = 750 sqft / 2,000 sqft of the occupied units = 37.50%',
    'Base charge = $900.00 x 750 / 2,000 = $337.50',
    'Admin fee = $337.50 x 5% = $16.88',
    'Total charge = $337.50 + $16.88 = $354.38',
  ],
  calculated_at: '2026-02-03T09:20:00.000Z',
};
