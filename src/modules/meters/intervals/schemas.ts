import { z } from 'zod';

export const intervalUploadBody = z
  .object({
    file: z.string().optional().meta({
      type: 'string',
      format: 'binary',
      description: 'A Green Button ESPI XML file or a utility "Download My Data" CSV (at most 50 MB).',
    }),
  })
  .meta({
    example: { file: 'TYPE,DATE,START TIME,END TIME,USAGE,UNITS,COST,NOTES\nElectric usage,2019-07-01,00:00,00:14,1.25,kWh,$0.31,\n' },
  });

const span = z.object({ start: z.string(), end: z.string(), intervals: z.number().int() });

export const importReport = z
  .object({
    meter_id: z.string(),
    format: z.enum(['espi_xml', 'csv_pge', 'csv_sce', 'csv_sdge', 'csv_generic']),
    interval_minutes: z.number().int(),
    timezone: z.string().meta({ description: "The property's time zone: local times of a CSV are read in it." }),
    readings: z.number().int().meta({ description: "Readings read from the file (electric energy, of the file's interval length)." }),
    stored: z.number().int().meta({ description: 'Readings stored in an interval that had none.' }),
    duplicates: z.number().int().meta({
      description: 'Readings of an interval that already had one (stored earlier, or earlier in the file): the newer reading is kept.',
    }),
    replaced: z.number().int().meta({ description: 'Of the duplicates, those whose value differed from the one they replaced.' }),
    first_start: z.string().nullable(),
    last_end: z.string().nullable(),
    gaps: z.object({
      missing_intervals: z.number().int(),
      spans: z
        .array(span)
        .meta({ description: 'The first 100 spans without a reading between the first and the last reading of the file.' }),
    }),
    dst_repeats: z.number().int().meta({
      description: 'Readings whose local start time occurs twice (the fall-back hour): both are kept, as distinct UTC intervals.',
    }),
    skipped: z.array(z.object({ reason: z.string(), readings: z.number().int() })).meta({
      description: 'Readings not stored by kind: not energy in Wh, energy received from the customer, another interval length.',
    }),
    rejected: z
      .array(z.object({ line: z.number().int(), detail: z.string() }))
      .meta({ description: 'The first 100 invalid rows (CSV line numbers).' }),
    rejected_count: z.number().int(),
  })
  .meta({
    example: {
      meter_id: '7d0f6a2e-5d1b-4c59-9a53-2f1d3c8e6b10',
      format: 'espi_xml',
      interval_minutes: 15,
      timezone: 'America/New_York',
      readings: 1340,
      stored: 1340,
      duplicates: 0,
      replaced: 0,
      first_start: '2012-03-01T00:00:00-05:00',
      last_end: '2012-03-15T00:00:00-04:00',
      gaps: { missing_intervals: 0, spans: [] },
      dst_repeats: 0,
      skipped: [],
      rejected: [],
      rejected_count: 0,
    },
  });

export const rangeQuery = z.object({
  start: z.string().min(10).max(40).meta({
    description: "A local date (YYYY-MM-DD, midnight in the property's time zone) or an ISO 8601 date-time with offset; inclusive.",
  }),
  end: z.string().min(10).max(40).meta({ description: 'As start; exclusive. At most 400 days after start.' }),
});

export const readQuery = rangeQuery.extend({ format: z.enum(['json', 'csv']).optional() });
export const profileQuery = rangeQuery.extend({ format: z.enum(['json', 'svg']).optional() });

export const intervalReadings = z
  .object({
    meter_id: z.string(),
    timezone: z.string(),
    start: z.string(),
    end: z.string(),
    interval_minutes: z.number().int(),
    count: z.number().int(),
    readings: z
      .array(z.object({ start: z.string(), end: z.string(), kwh: z.number() }))
      .meta({ description: 'Intervals with a reading, in order; local times with offset.' }),
  })
  .meta({
    example: {
      meter_id: '7d0f6a2e-5d1b-4c59-9a53-2f1d3c8e6b10',
      timezone: 'America/Denver',
      start: '2019-07-01T00:00:00-06:00',
      end: '2019-07-01T00:30:00-06:00',
      interval_minutes: 15,
      count: 2,
      readings: [
        { start: '2019-07-01T00:00:00-06:00', end: '2019-07-01T00:15:00-06:00', kwh: 1.25 },
        { start: '2019-07-01T00:15:00-06:00', end: '2019-07-01T00:30:00-06:00', kwh: 1.5 },
      ],
    },
  });

const byHour = z
  .array(z.number().nullable())
  .meta({ description: 'Average kW of the intervals starting in each local hour 0 to 23; null without readings.' });

export const loadProfileResponse = z
  .object({
    meter_id: z.string(),
    meter_name: z.string(),
    timezone: z.string(),
    start: z.string(),
    end: z.string(),
    readings: z.number().int(),
    interval_minutes: z.number().int(),
    energy_kwh: z.number(),
    peak_kw: z.number().nullable().meta({ description: "The largest interval's average kW." }),
    peak_at: z.string().nullable().meta({ description: 'Start of the peak interval, local time.' }),
    average_kw: z.number().nullable(),
    load_factor: z.number().nullable().meta({ description: 'average_kw / peak_kw (EIA glossary).' }),
    base_load_kw: z
      .number()
      .nullable()
      .meta({ description: "2.5th percentile of the intervals' kW, nearest rank (LBNL-3713E near-base load)." }),
    after_hours_share: z.number().nullable().meta({ description: 'Share of kWh outside weekdays 07:00-18:00 local time.' }),
    weekday_by_hour: byHour,
    weekend_by_hour: byHour,
  })
  .meta({
    example: {
      meter_id: '7d0f6a2e-5d1b-4c59-9a53-2f1d3c8e6b10',
      meter_name: 'Electric meter',
      timezone: 'America/Denver',
      start: '2019-07-01T00:00:00-06:00',
      end: '2019-07-08T00:00:00-06:00',
      readings: 6,
      interval_minutes: 60,
      energy_kwh: 28,
      peak_kw: 10,
      peak_at: '2019-07-01T12:00:00-06:00',
      average_kw: 4.667,
      load_factor: 0.4667,
      base_load_kw: 2,
      after_hours_share: 0.5,
      weekday_by_hour: [
        null,
        null,
        null,
        null,
        null,
        null,
        2,
        4,
        null,
        null,
        null,
        null,
        10,
        null,
        null,
        null,
        null,
        null,
        4,
        null,
        null,
        null,
        null,
        null,
      ],
      weekend_by_hour: [
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        3,
        null,
        null,
        null,
        null,
        5,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
      ],
    },
  });
