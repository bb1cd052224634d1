import { classifyArrival, readStreamEnvelope } from './envelope';

const body = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v));
const unitUpdate = {
  event: 'data.update', timestamp: '2026-03-02T14:05:09Z', connection_id: 'c1', resource_type: 'unit',
  data: { id: 'u1', property_id: 'p1', unit_number: '1A', status: 'vacant' },
};

describe('classifyArrival', () => {
  it('a valid event enters its stream', () => {
    expect(classifyArrival(body(unitUpdate))).toEqual({
      kind: 'event',
      envelope: { event: 'data.update', connectionId: 'c1', resourceType: 'unit', timestamp: '2026-03-02T14:05:09Z', data: unitUpdate.data },
    });
  });

  it('a time without a zone is read as UTC; offsets are kept', () => {
    const local = classifyArrival(body({ ...unitUpdate, timestamp: '2026-03-02T14:05:09.123456' }));
    expect(local.kind === 'event' && local.envelope.timestamp).toBe('2026-03-02T14:05:09.123456Z');
    const offset = classifyArrival(body({ ...unitUpdate, timestamp: '2026-03-02T14:05:09+02:00' }));
    expect(offset.kind === 'event' && offset.envelope.timestamp).toBe('2026-03-02T14:05:09+02:00');
  });

  it('sync.complete needs no resource_type', () => {
    const a = classifyArrival(body({ event: 'sync.complete', timestamp: '2026-03-02T14:05:09Z', connection_id: 'c1', data: { sync_id: 's' } }));
    expect(a.kind).toBe('event');
    expect(a.kind === 'event' && a.envelope.resourceType).toBeNull();
  });

  it('test.ping is a ping, with or without a connection', () => {
    expect(classifyArrival(body({ event: 'test.ping' }))).toEqual({ kind: 'ping', connectionId: null });
    expect(classifyArrival(body({ event: 'test.ping', connection_id: 'c9', data: {} }))).toEqual({ kind: 'ping', connectionId: 'c9' });
  });

  it('unknown event and resource types are ignored, keeping what is known for the log', () => {
    expect(classifyArrival(body({ ...unitUpdate, event: 'data.delete' }))).toEqual({
      kind: 'ignored', event: 'data.delete', connectionId: 'c1', resourceType: 'unit', detail: 'unknown event type',
    });
    expect(classifyArrival(body({ ...unitUpdate, resource_type: 'parking_spot' }))).toMatchObject({
      kind: 'ignored', detail: 'unknown resource type', resourceType: 'parking_spot',
    });
  });

  it.each([
    [null, 'Body exceeds 1048576 bytes'],
    ['not json', 'Body is not valid JSON'],
    ['', 'Body is not valid JSON'],
    [Buffer.from([0x7b, 0xff, 0x7d]), 'Body is not valid JSON'],
    ['[1,2]', 'Body is not a JSON object'],
    ['null', 'Body is not a JSON object'],
    ['"text"', 'Body is not a JSON object'],
    [{ ...unitUpdate, event: undefined }, 'event: field required'],
    [{ ...unitUpdate, event: 7 }, 'event: str type expected'],
    [{ ...unitUpdate, connection_id: undefined }, 'connection_id: field required'],
    [{ ...unitUpdate, connection_id: 12 }, 'connection_id: str type expected'],
    [{ ...unitUpdate, connection_id: '  ' }, 'connection_id: ensure this value has at least 1 characters'],
    [{ ...unitUpdate, timestamp: undefined }, 'timestamp: field required'],
    [{ ...unitUpdate, timestamp: 'yesterday' }, 'timestamp: invalid ISO 8601 date-time'],
    [{ ...unitUpdate, data: undefined }, 'data: field required'],
    [{ ...unitUpdate, data: [1] }, 'data: value is not a valid dict'],
    [{ ...unitUpdate, data: 'x' }, 'data: value is not a valid dict'],
    [{ ...unitUpdate, resource_type: undefined }, 'resource_type: field required'],
  ])('a malformed body %# is failed with its reason', (input, detail) => {
    const raw = input === null ? null : Buffer.isBuffer(input) ? input : body(input);
    const a = classifyArrival(raw);
    expect(a.kind).toBe('failed');
    expect(a.kind === 'failed' && a.detail).toBe(detail);
  });

  it('reads a stored event back', () => {
    expect(readStreamEnvelope(body(unitUpdate)).connectionId).toBe('c1');
    expect(() => readStreamEnvelope(body('[]'))).toThrow('no longer a stream event');
  });
});
