import { movedRubsFactors, pmsUnitData, toUnitRecord } from './unit-data';

describe('PMS unit data', () => {
  it('maps the lease onto the stored unit; ids may be numbers', () => {
    const unit = pmsUnitData.parse({
      id: 17,
      property_id: 'p1',
      unit_number: '1A',
      sqft: 812.5,
      bedrooms: 2,
      bathrooms: 1.5,
      status: 'occupied',
      current_lease: { resident_name: 'Ana', occupant_count: 3, start_date: '2025-06-01', end_date: '2026-05-31T00:00:00Z' },
    });
    expect(toUnitRecord(unit)).toEqual({
      pms_unit_id: '17',
      unit_number: '1A',
      sqft: 812.5,
      bedrooms: 2,
      bathrooms: 1.5,
      status: 'occupied',
      resident_name: 'Ana',
      occupant_count: 3,
      lease_start: '2025-06-01',
      lease_end: '2026-05-31',
    });
  });

  it('a unit without a lease has no resident or occupants; optional fields default to null', () => {
    const unit = pmsUnitData.parse({ id: 'u', property_id: 'p', unit_number: '2', status: 'vacant', current_lease: null });
    expect(toUnitRecord(unit)).toMatchObject({ sqft: null, bedrooms: null, resident_name: null, occupant_count: null, lease_start: null });
  });

  it.each([
    [{ property_id: 'p', unit_number: '1', status: 'vacant' }, 'id'],
    [{ id: 'u', property_id: 'p', unit_number: '1', status: 'empty' }, 'status'],
    [{ id: 'u', property_id: 'p', unit_number: '1', status: 'vacant', sqft: -1 }, 'sqft'],
    [{ id: 'u', property_id: 'p', unit_number: '1', status: 'vacant', bedrooms: 1.5 }, 'bedrooms'],
    [
      { id: 'u', property_id: 'p', unit_number: '1', status: 'occupied', current_lease: { occupant_count: 'two' } },
      'current_lease.occupant_count',
    ],
    [
      { id: 'u', property_id: 'p', unit_number: '1', status: 'occupied', current_lease: { start_date: '2025-13-01' } },
      'current_lease.start_date',
    ],
  ])('rejects invalid unit %#', (input, field) => {
    const parsed = pmsUnitData.safeParse(input);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0].path.join('.')).toBe(field);
  });

  it('names the RUBS factors that moved', () => {
    const before = { status: 'occupied', occupant_count: 2, sqft: 800 };
    expect(movedRubsFactors(before, { ...before })).toEqual([]);
    expect(movedRubsFactors(before, { status: 'vacant', occupant_count: null, sqft: 800 })).toEqual([
      'status occupied -> vacant',
      'occupants 2 -> none',
    ]);
    expect(movedRubsFactors(before, { ...before, sqft: 812.5 })).toEqual(['sqft 800 -> 812.5']);
  });
});
