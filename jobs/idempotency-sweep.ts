import type { Services } from '../src/services';

/** `idempotency-sweep`: deletes the Idempotency-Keys older than 24 hours; the work is the store's. */
export function idempotencySweepProcessor(services: Pick<Services, 'idempotency'>) {
  return async (): Promise<void> => {
    await services.idempotency.deleteExpired();
  };
}
