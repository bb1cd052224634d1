/**
 * The URDB rate record as shipped in data/reference/urdb_tariffs.jsonl.gz
 * (URDB web-API v7/v8 "detail=full" format, keys lower-case). Optional keys are
 * absent, not null. Only the keys the importer reads are typed.
 */
export interface UrdbTier {
  rate?: number;
  adj?: number;
  max?: number;
  unit?: string;
  sell?: number;
}

export interface UrdbRecord {
  label: string;
  eiaid: number;
  utility: string;
  name: string;
  sector: string;
  uri: string;
  /** The rate sheet's address, and the page that lists it (where the utility publishes the tariff). */
  source?: string;
  sourceparent?: string;
  servicetype?: string;
  startdate?: number;
  enddate?: number;
  revisions?: number[];
  description?: string;
  basicinformationcomments?: string;
  energycomments?: string;

  energyratestructure?: UrdbTier[][];
  energyweekdayschedule?: number[][];
  energyweekendschedule?: number[][];

  demandratestructure?: UrdbTier[][];
  demandweekdayschedule?: number[][];
  demandweekendschedule?: number[][];
  demandrateunit?: string;

  flatdemandstructure?: UrdbTier[][];
  flatdemandmonths?: number[];
  flatdemandunit?: string;

  coincidentratestructure?: UrdbTier[][];
  coincidentschedule?: number[][];
  coincidentrateunit?: string;

  demandreactivepowercharge?: number;
  demandwindow?: number;
  lookbackpercent?: number;
  lookbackmonths?: boolean[];
  lookbackrange?: number;

  fixedchargefirstmeter?: number;
  fixedchargeunits?: string;
  /** Fixed charge per additional meter, in `fixedchargeunits`. */
  fixedchargeeaaddl?: number;
  mincharge?: number;
  minchargeunits?: string;
  fueladjustmentsmonthly?: number[];
  dgrules?: string;

  peakkwcapacitymin?: number;
  peakkwcapacitymax?: number;
  peakkwhusagemin?: number;
  peakkwhusagemax?: number;
  voltagecategory?: string;
  phasewiring?: string;
  voltageminimum?: number;
  voltagemaximum?: number;
}

/** A record the importer cannot use as published; the message is the skip reason. */
export class UrdbRecordError extends Error {}
