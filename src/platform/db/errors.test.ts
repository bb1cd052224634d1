import { isDatabaseUnavailable, isUniqueViolation, sqlState } from './errors';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });
/** drizzle wraps the driver's error as its cause. */
const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: ...'), { cause });

describe('database errors', () => {
  it.each([
    ['connection refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a socket closed under a query', new Error('Connection terminated unexpectedly')],
    ['the server shutting down', pgError('57P01', 'terminating connection due to administrator command')],
    ['the server starting up', pgError('57P03', 'the database system is starting up')],
    ['a connection exception', pgError('08006')],
    ['too many connections', pgError('53300')],
  ])('%s is the database being unavailable, wrapped or not', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
    expect(isDatabaseUnavailable(wrapped(err))).toBe(true);
  });

  it.each([
    ['a unique violation', pgError('23505')],
    ['a syntax error', pgError('42601')],
    ['an error of the application', new Error('boom')],
    ['not an error', 'text'],
  ])('%s is not', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
    expect(isDatabaseUnavailable(wrapped(err))).toBe(false);
  });

  it('finds the SQLSTATE behind a wrapper', () => {
    expect(sqlState(wrapped(pgError('40P01')))).toBe('40P01');
    expect(sqlState(new Error('x'))).toBeUndefined();
  });

  it('finds a unique violation behind a wrapper, of a given constraint when one is named', () => {
    const violation = Object.assign(pgError('23505'), { constraint: 'one_active' });
    expect(isUniqueViolation(wrapped(violation))).toBe(true);
    expect(isUniqueViolation(wrapped(violation), 'one_active')).toBe(true);
    expect(isUniqueViolation(wrapped(violation), 'another_index')).toBe(false);
    expect(isUniqueViolation(wrapped(pgError('23503')))).toBe(false);
  });
});
