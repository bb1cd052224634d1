import { transactionsOf } from './apply';

const streams = (...pending: number[]) => pending.map((n, i) => ({ connectionId: `c${i}`, pending: n }));
const shape = (groups: ReturnType<typeof transactionsOf>) => groups.map((g) => g.map((s) => s.limit));

/** Issue 46 item 9: a transaction of the drain applies about 100 events, never 50 streams of 100. */
describe('the drain of every stream, in transactions', () => {
  it('groups streams of a few events up to 100 events', () => {
    expect(shape(transactionsOf(streams(...Array<number>(60).fill(3))))).toEqual([Array(33).fill(3), Array(27).fill(3)]);
  });

  it('gives a stream with 100 or more events a transaction of its own, of 100', () => {
    expect(shape(transactionsOf(streams(5, 250, 40, 70, 1)))).toEqual([[5], [100], [40], [70, 1]]);
  });

  it('takes at most 50 streams in one transaction, and reads at least one number of each', () => {
    expect(shape(transactionsOf(streams(...Array<number>(120).fill(0))))).toEqual([
      Array(50).fill(1),
      Array(50).fill(1),
      Array(20).fill(1),
    ]);
  });
});
