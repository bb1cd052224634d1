import type { TariffOverPeriods } from './service';
import { tariffReadsOnce } from './tariff-reads';

describe('tariffReadsOnce: one run reads each (owner, tariff, supply contract) once', () => {
  it('answers a repeated ask with the first read, and reads again for another owner, tariff or supply contract', async () => {
    const asked: string[] = [];
    const reads = tariffReadsOnce({
      tariffOverPeriods: async (ownerId, ids) => {
        asked.push(`${ownerId}/${ids.tariffId}/${ids.supplyTariffId ?? '-'}`);
        const read: TariffOverPeriods = () => ({ ok: true, spans: [], supplyTariff: null });
        return read;
      },
    });
    const first = await reads('alice', { tariffId: 't1' });
    expect(await reads('alice', { tariffId: 't1', supplyTariffId: null })).toBe(first);
    expect(await reads('alice', { tariffId: 't1' })).toBe(first);
    await reads('alice', { tariffId: 't1', supplyTariffId: 's1' });
    await reads('alice', { tariffId: 't2' });
    await reads('bob', { tariffId: 't1' });
    await reads(null, { tariffId: 't1' });
    expect(asked).toEqual(['alice/t1/-', 'alice/t1/s1', 'alice/t2/-', 'bob/t1/-', 'null/t1/-']);
  });

  it('a second run reads afresh (nothing outlives the run that made it)', async () => {
    let count = 0;
    const pricing = {
      tariffOverPeriods: async () => {
        count += 1;
        return (() => ({ ok: true, spans: [], supplyTariff: null })) as TariffOverPeriods;
      },
    };
    await tariffReadsOnce(pricing)('alice', { tariffId: 't1' });
    await tariffReadsOnce(pricing)('alice', { tariffId: 't1' });
    expect(count).toBe(2);
  });
});
