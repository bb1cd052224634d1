import { coverageChange } from './coverage';

const pair = (zipCode: string, utilityId: string, source = 'non_iou_2023') => ({ zipCode, utilityId, source });

describe('coverageChange', () => {
  it('counts ZIP codes and pairs gained and lost between two imports', () => {
    const before = [pair('94103', '16612', 'non_iou_2020'), pair('10001', '4226', 'iou_2011'), pair('58501', '12199', 'iou_2011')];
    const after = [pair('94103', '16612'), pair('94103', '14328', 'iou_2011'), pair('10001', '4226', 'iou_2011'), pair('99501', '599')];
    expect(coverageChange(before, after)).toEqual({
      // 58501 lost its only utility; 99501 is new.
      zipCodes: { before: 3, after: 3, gained: 1, lost: 1 },
      // added: 94103|14328, 99501|599; removed: 58501|12199 (a pair is a ZIP and a utility, whatever the source table).
      pairs: { before: 3, after: 4, added: 2, removed: 1 },
      pairsBySource: { non_iou_2023: 2, iou_2011: 2 },
      gainedSample: ['99501'],
      lostSample: ['58501'],
    });
  });

  it('reports nothing changed for the same pairs, and samples at most sampleSize ZIP codes in order', () => {
    const same = [pair('00601', '1'), pair('00602', '1')];
    expect(coverageChange(same, same).pairs).toEqual({ before: 2, after: 2, added: 0, removed: 0 });
    const many = Array.from({ length: 15 }, (_, i) => pair(String(90000 + 14 - i), '7'));
    const change = coverageChange([], many, 3);
    expect(change.zipCodes.gained).toBe(15);
    expect(change.gainedSample).toEqual(['90000', '90001', '90002']);
  });
});
