import { Redis } from 'ioredis';
import type { Logger } from './logger';

/**
 * An ioredis client for request-path use (rate-limit and quota counters):
 * a command fails after one reconnect attempt instead of queueing for ever,
 * so a Redis outage shows up as an error the caller can handle.
 * (BullMQ opens its own connections: queue/redis.ts.)
 */
export function createRedisClient(url: string, logger: Logger): Redis {
  const client = new Redis(url, {
    maxRetriesPerRequest: 1,
    connectTimeout: 5000,
  });
  // Without a listener ioredis prints every failed reconnect; log it once per state change instead.
  let healthy = true;
  client.on('error', (err: Error) => {
    if (healthy) logger.error({ err }, 'redis connection error');
    healthy = false;
  });
  client.on('ready', () => {
    healthy = true;
  });
  return client;
}

/** Closes gracefully (QUIT), falling back to a hard disconnect when the server is unreachable. */
export async function closeRedisClient(client: Redis): Promise<void> {
  if (client.status === 'end') return;
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
}
