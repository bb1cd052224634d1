import { createLogger } from '../../platform/logger';
import { KeyUsageRecorder } from './key-usage';

const logger = createLogger('silent');
const t = (s: string) => new Date(`2026-01-01T00:00:${s}Z`);

describe('KeyUsageRecorder', () => {
  it('writes the latest use per key in one batch, and nothing when idle', async () => {
    const writes: Array<Array<{ id: string; at: Date }>> = [];
    const recorder = new KeyUsageRecorder(async (uses) => void writes.push(uses), logger, 0);
    recorder.record('k1', t('05'));
    recorder.record('k1', t('03'));
    recorder.record('k2', t('04'));
    expect(recorder.pendingUse('k1')).toEqual(t('05'));
    await recorder.flush();
    await recorder.flush();
    expect(writes).toEqual([
      [
        { id: 'k1', at: t('05') },
        { id: 'k2', at: t('04') },
      ],
    ]);
    expect(recorder.pendingUse('k1')).toBeUndefined();
  });

  it('keeps a failed batch for the next flush and flushes on close', async () => {
    let fail = true;
    const writes: Array<Array<{ id: string; at: Date }>> = [];
    const recorder = new KeyUsageRecorder(
      async (uses) => {
        if (fail) throw new Error('db down');
        writes.push(uses);
      },
      logger,
      0,
    );
    recorder.record('k1', t('01'));
    await recorder.flush();
    expect(writes).toEqual([]);
    fail = false;
    recorder.record('k1', t('02'));
    await recorder.close();
    expect(writes).toEqual([[{ id: 'k1', at: t('02') }]]);
  });
});
