import { pmsUnitData } from '../pms/unit-data';
import { toBillingUnits } from './pms-units';

const unit = (over: Record<string, unknown>) =>
  pmsUnitData.parse({ id: 'u1', property_id: 'p', unit_number: '1', status: 'occupied', ...over });

describe('PMS units as RUBS units', () => {
  it('maps sqft, occupants, vacancy, resident and lease dates', () => {
    const [occupied, vacant] = toBillingUnits(
      [
        unit({
          sqft: 812.5,
          current_lease: { resident_name: 'Ana Ruiz', occupant_count: 3, start_date: '2026-03-10', end_date: '2027-03-09' },
        }),
        unit({ id: 'u2', status: 'vacant', sqft: 600, current_lease: null }),
      ],
      '2026-03-01',
    );
    expect(occupied).toEqual({
      unit_id: 'u1',
      tenant_name: 'Ana Ruiz',
      sqft: 812.5,
      occupant_count: 3,
      is_vacant: false,
      move_in: '2026-03-10',
      move_out: '2027-03-09',
    });
    expect(vacant).toEqual({
      unit_id: 'u2',
      tenant_name: '',
      sqft: 600,
      occupant_count: 0,
      is_vacant: true,
      move_in: null,
      move_out: null,
    });
  });

  it('a lease ended before the period on a unit still occupied is a holdover: no move-out', () => {
    const [u] = toBillingUnits(
      [unit({ current_lease: { resident_name: 'B', occupant_count: 1, start_date: '2024-01-01', end_date: '2025-12-31' } })],
      '2026-03-01',
    );
    expect(u).toMatchObject({ move_in: '2024-01-01', move_out: null, is_vacant: false });
  });

  it('a lease ending inside the period is a move-out; an occupied unit without lease data has no occupant factor', () => {
    const [moving, unknown] = toBillingUnits(
      [
        unit({ current_lease: { resident_name: 'C', occupant_count: 2, start_date: null, end_date: '2026-03-15' } }),
        unit({ id: 'u3', current_lease: null }),
      ],
      '2026-03-01',
    );
    expect(moving).toMatchObject({ move_in: null, move_out: '2026-03-15', occupant_count: 2 });
    expect(unknown).toMatchObject({ occupant_count: null, tenant_name: '', move_in: null, move_out: null });
  });

  it('a resident name is cut to the 200 characters a calculation keeps', () => {
    const [u] = toBillingUnits(
      [unit({ current_lease: { resident_name: 'x'.repeat(300), occupant_count: 1, start_date: null, end_date: null } })],
      '2026-03-01',
    );
    expect(u.tenant_name).toHaveLength(200);
  });
});
