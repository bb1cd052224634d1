import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({
    name: 'api',
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers["x-admin-token"]', 'req.headers["x-pms-signature"]'],
      censor: '[redacted]',
    },
  });
}
