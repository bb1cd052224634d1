import { isoToMicros } from '../pms/timestamps';
import { classifyArrival, readStreamEnvelope } from './envelope';

const NOT_ISO = 'invalid ISO 8601 date-time, expected YYYY-MM-DDTHH:MM:SS[.fraction][Z|+HH:MM|-HH:MM]';
const body = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v));
const unitUpdate = {
  event: 'data.update',
  timestamp: '2026-03-02T14:05:09Z',
  connection_id: 'c1',
  resource_type: 'unit',
  data: { id: 'u1', property_id: 'p1', unit_number: '1A', status: 'vacant' },
};

describe('classifyArrival', () => {
  it('a valid event enters its stream', () => {
    expect(classifyArrival(body(unitUpdate))).toEqual({
      kind: 'event',
      resourceType: 'unit',
      envelope: {
        event: 'data.update',
        connectionId: 'c1',
        resourceType: 'unit',
        timestamp: '2026-03-02T14:05:09Z',
        data: unitUpdate.data,
      },
    });
  });

  it('a time without a zone is read as UTC; offsets are kept', () => {
    const local = classifyArrival(body({ ...unitUpdate, timestamp: '2026-03-02T14:05:09.123456' }));
    expect(local.kind === 'event' && local.envelope.timestamp).toBe('2026-03-02T14:05:09.123456Z');
    const offset = classifyArrival(body({ ...unitUpdate, timestamp: '2026-03-02T14:05:09+02:00' }));
    expect(offset.kind === 'event' && offset.envelope.timestamp).toBe('2026-03-02T14:05:09+02:00');
  });

  it('sync.complete needs no resource_type', () => {
    const a = classifyArrival(
      body({ event: 'sync.complete', timestamp: '2026-03-02T14:05:09Z', connection_id: 'c1', data: { sync_id: 's' } }),
    );
    expect(a.kind).toBe('event');
    expect(a.kind === 'event' && a.envelope.resourceType).toBeNull();
  });

  it('test.ping is a ping, with or without a connection', () => {
    expect(classifyArrival(body({ event: 'test.ping' }))).toEqual({ kind: 'ping', connectionId: null, resourceType: null });
    expect(classifyArrival(body({ event: 'test.ping', connection_id: 'c9', data: {} }))).toEqual({
      kind: 'ping',
      connectionId: 'c9',
      resourceType: null,
    });
  });

  describe('the log keeps resource_type as sent when it is a string, whatever the kind', () => {
    it.each(['property', 'unit', 'parking_spot', '', 'u'.repeat(101)])('%j', (resourceType) => {
      expect(classifyArrival(body({ event: 'test.ping', connection_id: 'c9', resource_type: resourceType }))).toEqual({
        kind: 'ping',
        connectionId: 'c9',
        resourceType,
      });
      expect(classifyArrival(body({ ...unitUpdate, event: 'data.delete', resource_type: resourceType }))).toMatchObject({
        kind: 'ignored',
        resourceType,
      });
      expect(classifyArrival(body({ ...unitUpdate, timestamp: 'yesterday', resource_type: resourceType }))).toMatchObject({
        kind: 'failed',
        resourceType,
      });
      expect(classifyArrival(body({ ...unitUpdate, event: 'sync.complete', resource_type: resourceType }))).toMatchObject({
        kind: 'event',
        resourceType,
      });
    });

    it('an unlisted type on sync.complete is logged, not given to the applier', () => {
      expect(classifyArrival(body({ ...unitUpdate, event: 'sync.complete', resource_type: 'building' }))).toMatchObject({
        kind: 'event',
        resourceType: 'building',
        envelope: { resourceType: null },
      });
    });

    it.each([undefined, null, 7, ['unit'], { type: 'unit' }])('null when absent or not a string: %j', (resourceType) => {
      expect(classifyArrival(body({ event: 'test.ping', connection_id: 'c9', resource_type: resourceType }))).toMatchObject({
        resourceType: null,
      });
      expect(classifyArrival(body({ ...unitUpdate, event: 'data.delete', resource_type: resourceType }))).toMatchObject({
        resourceType: null,
      });
    });
  });

  it('unknown event and resource types are ignored, keeping what is known for the log', () => {
    expect(classifyArrival(body({ ...unitUpdate, event: 'data.delete' }))).toEqual({
      kind: 'ignored',
      event: 'data.delete',
      connectionId: 'c1',
      resourceType: 'unit',
      detail: 'unknown event type',
    });
    expect(classifyArrival(body({ ...unitUpdate, resource_type: 'parking_spot' }))).toMatchObject({
      kind: 'ignored',
      detail: 'unknown resource type',
      resourceType: 'parking_spot',
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
    [{ ...unitUpdate, timestamp: 'yesterday' }, `timestamp: ${NOT_ISO}`],
    [{ ...unitUpdate, timestamp: 7 }, 'timestamp: str type expected'],
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

  describe('timestamps: only what PostgreSQL stores and the applier reads', () => {
    it.each([
      ['0000-01-01T00:00:00Z', 'timestamp: year out of range (0001 to 9999)'],
      ['-000001-01-01T00:00:00Z', `timestamp: ${NOT_ISO}`],
      ['+294277-01-01T00:00:00Z', `timestamp: ${NOT_ISO}`],
      ['2026-01-01T00:00', `timestamp: ${NOT_ISO}`],
      ['2026-01-01T00:00Z', `timestamp: ${NOT_ISO}`],
      ['2026-01-01', `timestamp: ${NOT_ISO}`],
      ['2026-01-01 00:00:00Z', `timestamp: ${NOT_ISO}`],
      ['2026-01-01T00:00:00.Z', `timestamp: ${NOT_ISO}`],
      ['2026-01-01T00:00:00+0200', `timestamp: ${NOT_ISO}`],
      [' 2026-01-01T00:00:00Z', `timestamp: ${NOT_ISO}`],
      ['2026-02-29T00:00:00Z', 'timestamp: not a calendar date'],
      ['2026-13-01T00:00:00Z', 'timestamp: not a calendar date'],
      ['2026-04-31T00:00:00Z', 'timestamp: not a calendar date'],
      ['2026-01-01T24:00:00Z', 'timestamp: not a time of day'],
      ['2026-01-01T23:60:00Z', 'timestamp: not a time of day'],
      ['2026-01-01T23:59:60Z', 'timestamp: not a time of day'],
      ['2026-01-01T00:00:00+16:00', 'timestamp: time zone offset out of range (-15:59 to +15:59)'],
      ['2026-01-01T00:00:00-23:59', 'timestamp: time zone offset out of range (-15:59 to +15:59)'],
      ['2026-01-01T00:00:00+05:60', 'timestamp: time zone offset out of range (-15:59 to +15:59)'],
    ])('refuses %s', (timestamp, detail) => {
      expect(classifyArrival(body({ ...unitUpdate, timestamp }))).toEqual({
        kind: 'failed',
        event: 'data.update',
        connectionId: 'c1',
        resourceType: 'unit',
        detail,
      });
    });

    it.each([
      '0001-01-01T00:00:00Z',
      '9999-12-31T23:59:59Z',
      '0001-01-01T00:00:00+15:59',
      '9999-12-31T23:59:59-15:59',
      '2024-02-29T12:00:00Z',
      '2026-03-02T14:05:09.123456789Z',
      '2026-03-02T14:05:09',
      '2026-03-02T14:05:09.5-03:30',
    ])('accepts %s, and the applier reads it', (timestamp) => {
      const a = classifyArrival(body({ ...unitUpdate, timestamp }));
      expect(a.kind).toBe('event');
      expect(() => isoToMicros(a.kind === 'event' ? a.envelope.timestamp : '')).not.toThrow();
    });
  });

  describe('strings: well-formed Unicode without NUL, as PostgreSQL text and jsonb take them', () => {
    // JSON.stringify writes a lone surrogate as its escape (\ud800) and NUL as \u0000: plain ASCII in the body.
    it.each([
      [{ ...unitUpdate, connection_id: 'c\ud800' }, 'connection_id: must be well-formed Unicode (no lone surrogates)'],
      [{ ...unitUpdate, connection_id: 'c\u0000' }, 'connection_id: must not contain NUL characters'],
      [{ ...unitUpdate, resource_type: 'unit\udc00' }, 'resource_type: must be well-formed Unicode (no lone surrogates)'],
      [
        { ...unitUpdate, data: { ...unitUpdate.data, unit_number: '1A\ud83d' } },
        'data.unit_number: must be well-formed Unicode (no lone surrogates)',
      ],
      [
        { ...unitUpdate, data: { ...unitUpdate.data, lease: { names: ['ok', 'x\u0000'] } } },
        'data.lease.names[1]: must not contain NUL characters',
      ],
      [{ ...unitUpdate, data: { ...unitUpdate.data, 'a\u0000b': 1 } }, 'data: keys must not contain NUL characters'],
      [
        { ...unitUpdate, data: { ...unitUpdate.data, 'odd key': '\udfff' } },
        'data["odd key"]: must be well-formed Unicode (no lone surrogates)',
      ],
      [{ ...unitUpdate, note: 'n\u0000' }, 'note: must not contain NUL characters'],
    ])('refuses %# with the field named', (input, detail) => {
      const raw = body(input);
      expect(raw.every((b) => b < 0x80)).toBe(true); // the escapes are in the raw body, as the provider sends them
      const a = classifyArrival(raw);
      expect(a).toMatchObject({ kind: 'failed', event: 'data.update', detail });
      expect(a.kind === 'failed' && a.detail).not.toMatch(/\p{Cs}/u);
      expect(a.kind === 'failed' && a.detail).not.toContain('\u0000');
    });

    it('finds escapes written in upper case too', () => {
      const raw = (escape: string) =>
        Buffer.from(
          '{"event":"data.update","timestamp":"2026-01-01T00:00:00Z","connection_id":"c1",' +
            `"resource_type":"unit","data":{"id":"u1","unit_number":"1${escape}"}}`,
        );
      expect(classifyArrival(raw('\\uDBFF'))).toMatchObject({
        kind: 'failed',
        detail: 'data.unit_number: must be well-formed Unicode (no lone surrogates)',
      });
      expect(classifyArrival(raw('\\uDC00'))).toMatchObject({
        kind: 'failed',
        detail: 'data.unit_number: must be well-formed Unicode (no lone surrogates)',
      });
      expect(classifyArrival(raw('\\u0000'))).toMatchObject({
        kind: 'failed',
        detail: 'data.unit_number: must not contain NUL characters',
      });
      expect(classifyArrival(raw('\\\\uD800'))).toMatchObject({ kind: 'event' }); // an escaped backslash, then text
    });

    it('keeps pairs of surrogates (characters outside the BMP), written raw or escaped', () => {
      expect(
        classifyArrival(
          Buffer.from(
            '{"event":"data.update","timestamp":"2026-01-01T00:00:00Z","connection_id":"c\\ud83d\\ude00",' +
              '"resource_type":"unit","data":{"n":"\u{1F600}"}}',
          ),
        ),
      ).toMatchObject({ kind: 'event', envelope: { connectionId: 'c\u{1F600}', data: { n: '\u{1F600}' } } });
    });

    it('does not keep an ill-formed connection_id or resource_type in the log of a ping or an unknown event', () => {
      expect(classifyArrival(body({ event: 'test.ping', connection_id: 'c\ud800', resource_type: 'u\u0000' }))).toEqual({
        kind: 'ping',
        connectionId: null,
        resourceType: null,
      });
      expect(classifyArrival(body({ ...unitUpdate, event: 'data.delete', connection_id: 'c\u0000', resource_type: 'u\udc00' }))).toEqual({
        kind: 'ignored',
        event: 'data.delete',
        connectionId: null,
        resourceType: null,
        detail: 'unknown event type',
      });
      expect(classifyArrival(body({ ...unitUpdate, event: 'data\ud800' }))).toMatchObject({
        kind: 'failed',
        event: null,
        detail: 'event: must be well-formed Unicode (no lone surrogates)',
      });
    });
  });

  it('reads a stored event back', () => {
    expect(readStreamEnvelope(body(unitUpdate)).connectionId).toBe('c1');
    expect(() => readStreamEnvelope(body('[]'))).toThrow('no longer a stream event');
  });
});
