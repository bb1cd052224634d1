import { revisionSpans } from './revision-spans';
import type { Tariff } from './tariff.model';

const rev = (id: string, effectiveDate: string | null) => ({ id, effectiveDate }) as Tariff;
const spans = (chain: Tariff[], start: string, end: string) => revisionSpans(chain, start, end).map((s) => [s.tariff.id, s.from, s.to]);

describe('revisionSpans: the days of a billing period each revision of a schedule prices', () => {
  const chain = [rev('2017', '2017-07-01'), rev('2022', '2022-07-01')];

  it("a period before the newer revision is the older one's, one after it the newer one's", () => {
    expect(spans(chain, '2018-01-01', '2018-01-31')).toEqual([['2017', '2018-01-01', '2018-01-31']]);
    expect(spans(chain, '2025-01-01', '2025-01-31')).toEqual([['2022', '2025-01-01', '2025-01-31']]);
  });

  it('a period across the change is cut on the day the newer took effect', () => {
    expect(spans(chain, '2022-06-16', '2022-07-15')).toEqual([
      ['2017', '2022-06-16', '2022-06-30'],
      ['2022', '2022-07-01', '2022-07-15'],
    ]);
  });

  it('the oldest revision also prices days before its own date; a lone tariff prices the whole period', () => {
    expect(spans(chain, '2010-01-01', '2010-01-31')).toEqual([['2017', '2010-01-01', '2010-01-31']]);
    expect(spans([rev('alone', null)], '2025-01-01', '2025-01-31')).toEqual([['alone', '2025-01-01', '2025-01-31']]);
  });
});
