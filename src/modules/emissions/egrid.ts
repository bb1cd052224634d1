import { readCsv, readOncePerProcess } from '../utilities/reference';

/**
 * The bundled EPA eGRID2022 reference (data/reference/README.md "Emissions"), read once per
 * process like the load shapes: 27 subregion output rates and 41,588 ZIP codes, a lookup table the
 * service never writes, so it stays in memory rather than in the database (decision 0020).
 */
export const EGRID_RATES_FILE = 'egrid2022_subregion_rates_lb_per_mwh.csv';
export const EGRID_ZIP_FILE = 'power_profiler_v13.2_zip_subregion.csv.gz';

/** Where the electricity factors come from, named in every answer. */
export const EGRID_SOURCE = {
  source: 'EPA eGRID2022, subregion annual total output emission rate (SRC2ERTA); ZIP code to subregion: EPA Power Profiler v13.2',
  year: 2022,
} as const;

export interface SubregionRate {
  /** eGRID acronym, e.g. NYCW. */
  subregion: string;
  name: string;
  /** SRC2ERTA: CO2 equivalent total output emission rate, lb/MWh. */
  co2eLbPerMwh: number;
}

export interface EgridReference {
  rates: ReadonlyMap<string, SubregionRate>;
  /** Each ZIP code's subregions in the Power Profiler's order (the first is the one used). */
  zipSubregions: ReadonlyMap<string, readonly string[]>;
}

/** The bundled eGRID reference, read once per process (another `dir`: read afresh, for tests). */
export const bundledEgrid = readOncePerProcess(readEgrid);

function readEgrid(dir: string): EgridReference {
  const rates = new Map<string, SubregionRate>();
  for (const r of readCsv(dir, EGRID_RATES_FILE)) {
    const rate = Number(r.SRC2ERTA);
    if (!r.SUBRGN || !Number.isFinite(rate) || rate <= 0) throw new Error(`${EGRID_RATES_FILE}: no SRC2ERTA for '${r.SUBRGN}'`);
    rates.set(r.SUBRGN, { subregion: r.SUBRGN, name: r.SRNAME, co2eLbPerMwh: rate });
  }
  const zipSubregions = new Map<string, string[]>();
  for (const r of readCsv(dir, EGRID_ZIP_FILE)) {
    const list = [r.subregion1, r.subregion2, r.subregion3].filter((s): s is string => Boolean(s));
    for (const s of list) if (!rates.has(s)) throw new Error(`${EGRID_ZIP_FILE}: ZIP ${r.zip} names unknown subregion '${s}'`);
    if (list.length) zipSubregions.set(r.zip, list);
  }
  return { rates, zipSubregions };
}
