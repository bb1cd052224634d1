import { createFreshAnswers } from './fresh-answers';
import type { AnalyticsRepository } from './repository';
import type { Recomputer } from './recompute';
import { utcDay } from '../../platform/dates';
import { monthIndexOfDate } from './months';

const NOW = new Date('2026-11-15T12:00:00Z');

/** Fresh answers over a snapshot that is current (no recompute). */
function answers() {
  const repo = {
    freshness: async () => ({ version: 3, snapshotVersion: 3, snapshotMonth: monthIndexOfDate(utcDay(NOW)) }),
  } as unknown as AnalyticsRepository;
  const recomputer: Recomputer = {
    recompute: async () => {
      throw new Error('the snapshot is current');
    },
  };
  return createFreshAnswers({ now: () => NOW, repo, recomputer, portfolios: { requireOwned: async () => ({}) as never } });
}

describe('fresh answers', () => {
  it('requests that miss at once share one build; the answer is then cached and frozen', async () => {
    const fresh = answers();
    let builds = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const build = async () => {
      builds++;
      await gate;
      return { months: [1, 2, 3] };
    };
    const pending = Array.from({ length: 20 }, () => fresh.answer('owner', 'trend', [36], null, undefined, build));
    release();
    const results = await Promise.all(pending);
    expect(builds).toBe(1);
    expect(new Set(results).size).toBe(1);
    expect(Object.isFrozen(results[0])).toBe(true);
    await fresh.answer('owner', 'trend', [36], null, undefined, build);
    expect(builds).toBe(1);
    // another key builds its own
    await fresh.answer('owner', 'trend', [12], null, undefined, build);
    expect(builds).toBe(2);
  });

  it('a failed build is not kept: the next request builds again', async () => {
    const fresh = answers();
    let calls = 0;
    const build = async () => {
      calls++;
      if (calls === 1) throw new Error('database unavailable');
      return { ok: true };
    };
    await expect(fresh.answer('owner', 'stats', [], null, undefined, build)).rejects.toThrow('database unavailable');
    await expect(fresh.answer('owner', 'stats', [], null, undefined, build)).resolves.toEqual({ ok: true });
  });
});
