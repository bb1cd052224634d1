import type { MeterUtilityType } from '../meters/units';

/** How a CSV row names its meter: by id, by account number, or by utility type (the default meter). */
export interface MeterRef {
  meterId?: string;
  accountNumber?: string;
  utilityType?: MeterUtilityType;
}

/** What the import needs of a meter. */
export interface ImportMeter {
  id: string;
  utilityType: string;
  unit: string;
  accountNumber: string | null;
  isDefault: boolean;
}

export interface ImportMeters {
  /** The row's meter, or a rejection naming the column. */
  resolve(ref: MeterRef): ImportMeter | string | Promise<ImportMeter | string>;
}

/**
 * Resolves the meters of an import's rows against the property's meters as they were when it
 * started; a default meter a row needs and the property lacks is created once, on first use.
 */
export function createImportMeters(known: ImportMeter[], createDefault: (type: MeterUtilityType) => Promise<ImportMeter>): ImportMeters {
  const byId = new Map(known.map((m) => [m.id, m]));
  const defaults = new Map<string, ImportMeter | Promise<ImportMeter>>(known.filter((m) => m.isDefault).map((m) => [m.utilityType, m]));
  return {
    resolve({ meterId, accountNumber, utilityType }) {
      if (meterId !== undefined) {
        const meter = byId.get(meterId);
        if (!meter) return `meter_id: no meter ${meterId} on this property`;
        if (utilityType !== undefined && utilityType !== meter.utilityType)
          return `utility_type: must be the meter's (${meter.utilityType})`;
        return meter;
      }
      if (accountNumber !== undefined) {
        const matches = known.filter(
          (m) => m.accountNumber === accountNumber && (utilityType === undefined || m.utilityType === utilityType),
        );
        if (matches.length === 1) return matches[0]!;
        const of = utilityType === undefined ? '' : ` for ${utilityType}`;
        if (matches.length === 0) return `account_number: no meter of this property has account number ${accountNumber}${of}`;
        return `account_number: ${matches.length} meters have account number ${accountNumber}${of}: name one by meter_id`;
      }
      if (utilityType === undefined) return 'utility_type: field required';
      let meter = defaults.get(utilityType);
      if (!meter) {
        meter = createDefault(utilityType);
        defaults.set(utilityType, meter);
      }
      return meter;
    },
  };
}
