import {
  applySupersessions,
  dayBefore,
  findSupersessions,
  nameWords,
  revisionRule,
  scheduleCodes,
  utilitiesNumberingRevisions,
  type RevisionCandidate,
} from './revisions';

/** A hand-made record: commercial, bundled, general, no voltage, no expiration date. */
const rec = (id: string, name: string, effectiveDate: string | null, over: Partial<RevisionCandidate> = {}): RevisionCandidate => ({
  id,
  name,
  utilityId: '1',
  state: 'GA',
  sector: 'commercial',
  effectiveDate,
  expirationDate: null,
  serviceType: 'bundled',
  voltage: null,
  purpose: 'general',
  ...over,
});

describe('revisions of one schedule: names', () => {
  it('compares the words of a name, not their case, punctuation, order or a date in it', () => {
    expect(nameWords('SCHEDULE TOU-MB-4 TIME OF USE - MULTIPLE BUSINESS')).toBe('business mb multiple of schedule time tou use #4');
    expect(nameWords('Time of Use- Multiple Business Schedule TOU-MB-4')).toBe(
      nameWords('SCHEDULE TOU-MB-4 TIME OF USE - MULTIPLE BUSINESS'),
    );
    expect(nameWords('General Service(Secondary Voltage)')).toBe(nameWords('General Service Secondary Voltage'));
    expect(nameWords('Rate 104- Commercial Inside Corporate Limits 2012')).toBe(
      nameWords('Rate 104- Commercial Inside Corporate Limits 2014'),
    );
    expect(nameWords('Large Light and Power Service (October 2013)')).toBe(nameWords('Large Light and Power Service'));
    expect(nameWords('General Service - Effective 1/1/2015')).toBe(nameWords('General Service'));
    // Numbers that are not dates stay: they tell schedules apart.
    expect(nameWords('GSA-2 (51-1000 kW)')).not.toBe(nameWords('GSA-3 (1001-5000 kW)'));
    expect(nameWords('Rate 104')).not.toBe(nameWords('Rate 105'));
    // Numbers keep their order: Choctaw's "Large Power 2, Level 3" and "Large Power 3, Level 2" are two schedules.
    expect(nameWords('Large Power 2 ,Three-Phase,Level 3')).not.toBe(nameWords('Large Power 3 ,Three-Phase Level 2'));
    // "<", ">" and "+" tell schedules apart too.
    expect(nameWords('General Service-Commercial Net Metering(<10 kW)')).not.toBe(
      nameWords('General Service-Commercial Net Metering(>10 kW)'),
    );
    expect(nameWords('GENERAL SERVICE Three Phase 200 AMP Service')).not.toBe(nameWords('GENERAL SERVICE Three Phase 200+ AMP Service'));
  });

  it('reads schedule codes: capital letters, a hyphen, a number, and the rest of the name', () => {
    expect(scheduleCodes('Time of Use- Multiple Business Schedule TOU-MB-7')).toEqual([
      {
        letters: 'TOU-MB',
        number: 7,
        rest: 'business multiple of schedule time use',
        restBesideVoltage: 'business multiple of schedule time use',
      },
    ]);
    expect(scheduleCodes('Large Electric Service Secondary (LE-24)')[0]).toMatchObject({
      rest: 'electric large secondary service',
      restBesideVoltage: 'electric large service',
    });
    expect(scheduleCodes('General Service - Low Voltage Single-Phase (GS-LVS-11)')[0]).toMatchObject({ letters: 'GS-LVS', number: 11 });
    // Not codes: no hyphen ("GSA1", "Rate 2"), lower case ("Class-2"), four digits.
    expect(scheduleCodes('Commercial Rate- GSA1')).toEqual([]);
    expect(scheduleCodes('Procurement Class-2')).toEqual([]);
    expect(scheduleCodes('Large Power 2, Level 1')).toEqual([]);
    expect(scheduleCodes('GS-2014')).toEqual([]);
  });
});

describe('revisions of one schedule: the rule', () => {
  it('same name, later effective date: a revision', () => {
    const older = rec('a', 'General Service Secondary Voltage', '2014-06-01', { voltage: 'secondary' });
    const newer = rec('b', 'General Service(Secondary Voltage)', '2016-07-01');
    expect(revisionRule(older, newer)).toBe('same_name');
    expect(revisionRule(newer, older)).toBeNull();
  });

  it('same name but not orderable, or not the same offer: not a revision', () => {
    const a = rec('a', 'Commercial Service', '2014-06-10');
    expect(revisionRule(a, rec('b', 'Commercial Service', '2014-06-10'))).toBeNull(); // same day: a duplicate or a variant
    expect(revisionRule(rec('c', 'Commercial Service', null), a)).toBeNull(); // which came first is unknown
    expect(revisionRule(a, rec('d', 'Commercial Service', null))).toBeNull();
    expect(revisionRule(a, rec('e', 'Commercial Service', '2016-01-01', { sector: 'residential' }))).toBeNull();
    expect(revisionRule(a, rec('f', 'Commercial Service', '2016-01-01', { utilityId: '2' }))).toBeNull();
    expect(revisionRule(a, rec('g', 'Commercial Service', '2016-01-01', { state: 'AL' }))).toBeNull();
    expect(revisionRule(a, rec('h', 'Commercial Service', '2016-01-01', { serviceType: 'delivery_only' }))).toBeNull();
    expect(revisionRule(a, rec('i', 'Commercial Service', '2016-01-01', { purpose: 'institutional' }))).toBeNull();
    const primary = rec('j', 'Commercial Service', '2014-06-10', { voltage: 'primary' });
    expect(revisionRule(primary, rec('k', 'Commercial Service', '2016-01-01', { voltage: 'secondary' }))).toBeNull();
    expect(revisionRule(primary, rec('l', 'Commercial Service', '2016-01-01'))).toBe('same_name');
  });

  it('the words of secondary service are left out when both are at secondary voltage or one states none (issue 45)', () => {
    // Northern States Power (MN): "General Service (A14)" of 2015 and its 2020 revision "... Secondary Voltage"
    const a14 = rec('a14', 'General Service (A14)', '2015-05-01', { voltage: 'secondary' });
    expect(revisionRule(a14, rec('a14s', 'General Service (A14) Secondary Voltage', '2020-11-16', { voltage: 'secondary' }))).toBe(
      'same_name',
    );
    expect(
      revisionRule(
        rec('w', 'Large Power Service- Secondary Service', '2012-02-01', { voltage: 'secondary' }),
        rec('w2', 'Large Power Service', '2014-10-14'),
      ),
    ).toBe('same_name');
    // never primary: SDG&E's "TOU-A Primary" is the primary twin of "TOU-A", not its revision
    expect(
      revisionRule(rec('toua', 'TOU-A', '2017-12-01'), rec('touap', 'TOU-A Primary', '2019-01-01', { voltage: 'primary' })),
    ).toBeNull();
    expect(revisionRule(a14, rec('a14p', 'General Service (A14) Primary Voltage', '2020-11-16', { voltage: 'primary' }))).toBeNull();
  });

  it('a higher revision number of one schedule code, the rest of the name the same: a revision', () => {
    const mb4 = rec('mb4', 'SCHEDULE TOU-MB-4 TIME OF USE - MULTIPLE BUSINESS', '2013-01-01');
    const mb7 = rec('mb7', 'Time of Use- Multiple Business Schedule TOU-MB-7', '2018-04-01', { voltage: 'secondary' });
    expect(revisionRule(mb4, mb7)).toBe('revision_number');
    expect(
      revisionRule(
        rec('b31', 'B-31 (Intermediate General Service)', '2002-12-31'),
        rec('b33', 'Intermediate General Service (B-33)', '2016-04-01'),
      ),
    ).toBe('revision_number');
    // The number must grow with the date, the rest of the name must agree, and say more than "schedule".
    expect(
      revisionRule(
        rec('x', 'Schedule PLS-11 Power and Light Small', '2013-01-01'),
        rec('y', 'Schedule PLS-10 Power and Light Small', '2015-01-01'),
      ),
    ).toBeNull();
    expect(
      revisionRule(rec('gs1', 'GS-1 Small General Service', '2012-01-01'), rec('gs2', 'GS-2 Large General Service', '2015-01-01')),
    ).toBeNull();
    expect(revisionRule(rec('sc2', 'SC-2', '2012-01-01'), rec('sc3', 'SC-3', '2017-05-01'))).toBeNull();
    expect(revisionRule(rec('s2', 'Schedule SC-2', '2012-01-01'), rec('s3', 'Schedule SC-3', '2017-05-01'))).toBeNull();
  });

  it('a higher revision number that adds the words of secondary service is a revision too (issue 45, third new-user pass)', () => {
    // Entergy New Orleans: "Large Electric Service (LE-23)" of 2016 and, in 2019, LE-24 split by voltage
    const le23 = rec('le23', 'Large Electric Service (LE-23)', '2016-07-01', { expirationDate: '2017-03-31' });
    expect(revisionRule(le23, rec('le24s', 'Large Electric Service Secondary (LE-24)', '2019-05-01', { voltage: 'secondary' }))).toBe(
      'revision_number',
    );
    expect(revisionRule(le23, rec('le24p', 'Large Electric Service Primary (LE-24)', '2019-05-01', { voltage: 'primary' }))).toBeNull();
  });

  it('a utility that numbers distinct schedules (two numbers of one code effective the same day) never matches by number', () => {
    // City of Vernon's GS-1 and GS-2 are two schedules (GS-2 for demands under 500 kW), so TOU-GS-1 and
    // TOU-GS-2 are too, although TOU-GS-2 was published three years after TOU-GS-1.
    const vernon = [
      rec('gs1', 'General Service GS-1', '2014-10-01', { utilityId: '19798', state: 'CA' }),
      rec('gs2', 'General Service GS-2', '2014-10-01', { utilityId: '19798', state: 'CA' }),
      rec('tou1', 'General Service TOU-GS-1', '2014-10-01', { utilityId: '19798', state: 'CA' }),
      rec('tou2', 'General Service TOU-GS-2', '2017-07-01', { utilityId: '19798', state: 'CA' }),
    ];
    expect(utilitiesNumberingRevisions(vernon)).toEqual(new Set());
    expect(findSupersessions(vernon)).toEqual([]);
    // A higher number effective before a lower one says the same.
    const distinct = [
      rec('a', 'Large Commercial LC-2', '2012-01-01'),
      rec('b', 'Large Commercial LC-1', '2014-01-01'),
      rec('c', 'Large Commercial LC-3', '2015-01-01'),
    ];
    expect(utilitiesNumberingRevisions(distinct)).toEqual(new Set());
    expect(findSupersessions(distinct)).toEqual([]);
    // The pair alone would match: the utility's other records decide.
    expect(revisionRule(vernon[2], vernon[3])).toBe('revision_number');
    expect(
      utilitiesNumberingRevisions([
        rec('p8', 'PLS-8 Power and Light Small', '2012-12-31'),
        rec('p10', 'PLS-10 Power and Light Small', '2015-04-01'),
      ]),
    ).toEqual(new Set(['1|GA']));
  });
});

describe('revisions of one schedule: which record supersedes which', () => {
  const mb4 = rec('mb4', 'SCHEDULE TOU-MB-4 TIME OF USE - MULTIPLE BUSINESS', '2013-01-01');
  const mb6 = rec('mb6', 'Time of Use- Multiple Business Schedule TOU-MB-6', '2015-04-01', { expirationDate: '2015-12-31' });
  const mb7 = rec('mb7', 'Time of Use- Multiple Business Schedule TOU-MB-7', '2018-04-01');
  const other = rec('hlf', 'SCHEDULE TOU-HLF-5 TIME OF USE - HIGH LOAD FACTOR', '2012-04-01');

  it('the next revision supersedes; a record without an expiration date expires the day before it took effect', () => {
    expect(findSupersessions([mb7, other, mb4, mb6])).toEqual([
      { id: 'mb4', supersededBy: 'mb6', rule: 'revision_number', expirationDate: '2015-03-31' },
      // A published expiration date is kept.
      { id: 'mb6', supersededBy: 'mb7', rule: 'revision_number', expirationDate: null },
    ]);
    expect(findSupersessions([mb4, mb7])).toEqual([
      { id: 'mb4', supersededBy: 'mb7', rule: 'revision_number', expirationDate: '2018-03-31' },
    ]);
  });

  it('of two revisions effective the same later day, the smaller id', () => {
    const list = [
      rec('z', 'General Service', '2016-01-01'),
      rec('old', 'General Service', '2014-01-01'),
      rec('y', 'General Service', '2016-01-01'),
    ];
    expect(findSupersessions(list)).toEqual([{ id: 'old', supersededBy: 'y', rule: 'same_name', expirationDate: '2015-12-31' }]);
  });

  it("a merged utility's schedules stay its own: never revisions of its successor's", () => {
    // Sharyland (17008) merged into Oncor (44372), whose id its tariffs now carry; their POLR schedules serve other areas.
    const oncor = rec('oncor', 'Medium Non-Residential LSP POLR', '2014-01-01', { utilityId: '44372', state: 'TX' });
    const sharyland = rec('sharyland', 'Medium Non-Residential LSP POLR', '2015-02-01', { utilityId: '44372', state: 'TX' });
    expect(applySupersessions([oncor, sharyland], (t) => (t.id === 'sharyland' ? '17008' : '44372')).supersessions).toEqual([]);
    expect(applySupersessions([oncor, sharyland]).supersessions).toHaveLength(1);
  });

  it('applies the rule to copies: superseded_by on every record, null where none superseded it', () => {
    const input = [mb4, mb7];
    const { tariffs, supersessions } = applySupersessions(input);
    expect(supersessions).toHaveLength(1);
    expect(tariffs).toEqual([
      { ...mb4, expirationDate: '2018-03-31', supersededBy: 'mb7' },
      { ...mb7, supersededBy: null },
    ]);
    expect(input[0].expirationDate).toBeNull();
  });

  it('the day before, across months and leap days', () => {
    expect(dayBefore('2015-04-01')).toBe('2015-03-31');
    expect(dayBefore('2016-03-01')).toBe('2016-02-29');
    expect(dayBefore('2021-01-01')).toBe('2020-12-31');
  });
});
