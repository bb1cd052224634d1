import { createLogger } from '../../platform/logger';
import { createPmsChargesClient, PmsChargeError, type PmsCharge } from './charges-client';

const logger = createLogger('silent');
const charge: PmsCharge = {
  connection_id: 'c',
  property_id: 'p',
  unit_id: 'u1',
  resident_name: 'Ana',
  amountCents: 12345,
  description: 'Water',
  charge_date: '2026-01-31',
};

/** A client whose every call answers with `answer` (a Response, or a thrown error). */
const clientAnswering = (answer: () => Response | Error) =>
  createPmsChargesClient({
    apiUrl: 'http://pms.invalid',
    apiKey: 'k',
    timeoutMs: 1000,
    logger,
    tries: 2,
    backoffMs: 1,
    fetch: (async () => {
      const a = answer();
      if (a instanceof Error) throw a;
      return a;
    }) as typeof fetch,
  });

const failure = async (answer: () => Response | Error): Promise<PmsChargeError> => {
  try {
    await clientAnswering(answer).postCharge('key', charge);
  } catch (err) {
    if (err instanceof PmsChargeError) return err;
    throw err;
  }
  throw new Error('posted');
};
const networkError = (code: string) => Object.assign(new TypeError('fetch failed'), { cause: { code } });

describe("which failures leave a charge's outcome unknown (issue 46)", () => {
  it('a 5xx, a time-out, a connection cut after sending or a 2xx without a charge id: the provider may have made it', async () => {
    expect(await failure(() => new Response('', { status: 500 }))).toMatchObject({
      final: false,
      ambiguous: true,
      reason: 'HTTP 500 (2 tries)',
    });
    expect((await failure(() => Object.assign(new Error('timed out'), { name: 'TimeoutError' }))).ambiguous).toBe(true);
    expect((await failure(() => networkError('ECONNRESET'))).ambiguous).toBe(true);
    expect((await failure(() => new Response('{}', { status: 201 }))).ambiguous).toBe(true);
  });

  it('a refusal, 408 or 429, a connection refused or a name not found: nothing was made', async () => {
    expect(await failure(() => new Response('{"detail":"no such unit"}', { status: 422 }))).toMatchObject({
      final: true,
      ambiguous: false,
      reason: 'HTTP 422: no such unit',
    });
    expect((await failure(() => new Response('', { status: 429 }))).ambiguous).toBe(false);
    expect((await failure(() => new Response('', { status: 408 }))).ambiguous).toBe(false);
    expect((await failure(() => networkError('ECONNREFUSED'))).ambiguous).toBe(false);
    expect((await failure(() => networkError('ENOTFOUND'))).ambiguous).toBe(false);
  });

  it('a refusal after an ambiguous call is still unknown: the first call may have made the charge', async () => {
    let calls = 0;
    const err = await failure(() =>
      ++calls === 1 ? new Response('', { status: 502 }) : new Response('{"detail":"key in use"}', { status: 409 }),
    );
    expect(err).toMatchObject({ final: true, ambiguous: true, reason: 'HTTP 409: key in use' });
  });
});
