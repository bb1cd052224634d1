import { SaxesParser, type SaxesTagPlain } from 'saxes';

/**
 * Green Button ESPI XML (NAESB REQ.21; the Green Button Alliance's schema espi.xsd,
 * https://github.com/GreenButtonAlliance/OpenESPI-Common-java): an Atom feed whose entries hold a
 * ReadingType (uom, powerOfTenMultiplier, flowDirection), MeterReadings linking to it and
 * IntervalBlocks of IntervalReadings (timePeriod start in UTC epoch seconds, duration in seconds,
 * value in uom x 10^powerOfTenMultiplier). A bare IntervalBlock document is read too.
 */

export interface ReadingTypeInfo {
  /** ESPI UnitSymbolKind: 72 = Wh, 38 = W, 169 = therm ... */
  uom: number | null;
  powerOfTenMultiplier: number;
  /** 1 = forward (delivered to the customer), 19 = reverse (received from it); null when not given. */
  flowDirection: number | null;
}

export interface EspiReading {
  start: number;
  duration: number;
  value: number;
}

export interface EspiBlock {
  readings: EspiReading[];
  /** The ReadingType of the block's MeterReading; null when the file has none. */
  readingType: ReadingTypeInfo | null;
}

/** A file that is not well-formed ESPI: the message says where. */
export class EspiError extends Error {}

interface Entry {
  self?: string;
  up?: string;
  related: string[];
  readingType?: ReadingTypeInfo;
  isMeterReading: boolean;
  blocks: EspiReading[][];
}

const local = (name: string) => name.slice(name.indexOf(':') + 1);

/**
 * A streaming reader: write() chunks of text as they arrive, end() at the end; each IntervalBlock
 * is handed to `onBlock` as soon as its ReadingType is known (at the latest at end()).
 */
export function createEspiReader(onBlock: (block: EspiBlock) => void) {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const stack: string[] = [];
  let entry: Entry | null = null;
  let rt: ReadingTypeInfo | null = null;
  let block: EspiReading[] | null = null;
  let reading: Partial<EspiReading> | null = null;
  let text = '';
  let sawRoot = false;
  let sawEspi = false;
  const readingTypes = new Map<string, ReadingTypeInfo>();
  const allReadingTypes: ReadingTypeInfo[] = [];
  const meterReadingTypes = new Map<string, string[]>();
  const pending: Array<{ up?: string; readings: EspiReading[] }> = [];
  let error: Error | null = null;

  const resolve = (up: string | undefined): ReadingTypeInfo | null | undefined => {
    if (up) {
      const meterReading = up.replace(/\/IntervalBlock\/?$/, '');
      for (const href of meterReadingTypes.get(meterReading) ?? []) {
        const found = readingTypes.get(href);
        if (found) return found;
      }
    }
    return undefined;
  };
  const emit = (up: string | undefined, readings: EspiReading[]) => {
    const found = resolve(up);
    if (found) onBlock({ readings, readingType: found });
    else pending.push({ up, readings });
  };

  parser.on('error', (err) => {
    error ??= new EspiError(`not well-formed XML: ${err.message}`);
  });
  parser.on('opentag', (tag: SaxesTagPlain) => {
    const name = local(tag.name);
    if (!sawRoot) {
      sawRoot = true;
      if (!['feed', 'entry', 'IntervalBlock', 'UsagePoint', 'MeterReading', 'ReadingType'].includes(name)) {
        error ??= new EspiError(`not a Green Button file: the root element is <${tag.name}>, not an Atom <feed> or an ESPI resource`);
      }
    }
    stack.push(name);
    text = '';
    if (name === 'entry') entry = { related: [], isMeterReading: false, blocks: [] };
    else if (name === 'link' && entry) {
      const rel = String(tag.attributes.rel ?? '');
      const href = String(tag.attributes.href ?? '');
      if (rel === 'self') entry.self = href;
      else if (rel === 'up') entry.up = href;
      else if (rel === 'related') entry.related.push(href);
    } else if (name === 'ReadingType') {
      sawEspi = true;
      rt = { uom: null, powerOfTenMultiplier: 0, flowDirection: null };
    } else if (name === 'MeterReading') {
      sawEspi = true;
      if (entry) entry.isMeterReading = true;
    } else if (name === 'IntervalBlock') {
      sawEspi = true;
      block = [];
    } else if (name === 'IntervalReading' && block) reading = {};
  });
  parser.on('text', (t) => {
    text += t;
  });
  parser.on('closetag', (tag: SaxesTagPlain) => {
    const name = local(tag.name);
    stack.pop();
    const parent = stack[stack.length - 1];
    const value = text.trim();
    text = '';
    if (rt && parent === 'ReadingType') {
      if (name === 'uom') rt.uom = integer(value, 'ReadingType uom');
      else if (name === 'powerOfTenMultiplier') rt.powerOfTenMultiplier = integer(value, 'ReadingType powerOfTenMultiplier');
      else if (name === 'flowDirection') rt.flowDirection = integer(value, 'ReadingType flowDirection');
    } else if (name === 'ReadingType' && rt) {
      allReadingTypes.push(rt);
      if (entry) entry.readingType = rt;
      rt = null;
    } else if (reading && parent === 'timePeriod') {
      if (name === 'start') reading.start = integer(value, 'IntervalReading timePeriod start');
      else if (name === 'duration') reading.duration = integer(value, 'IntervalReading timePeriod duration');
    } else if (reading && parent === 'IntervalReading' && name === 'value') {
      reading.value = number(value, 'IntervalReading value');
    } else if (name === 'IntervalReading' && reading && block) {
      if (reading.start === undefined || reading.duration === undefined || reading.value === undefined) {
        error ??= new EspiError(`IntervalReading at line ${parser.line} lacks ${reading.start === undefined ? 'timePeriod start' : reading.duration === undefined ? 'timePeriod duration' : 'value'}`);
      } else block.push(reading as EspiReading);
      reading = null;
    } else if (name === 'IntervalBlock' && block) {
      if (entry) entry.blocks.push(block);
      else emit(undefined, block);
      block = null;
    } else if (name === 'entry' && entry) {
      const e = entry;
      entry = null;
      if (e.readingType && e.self) readingTypes.set(e.self, e.readingType);
      if (e.isMeterReading && e.self) meterReadingTypes.set(e.self, e.related);
      for (const b of e.blocks) emit(e.up, b);
      if (e.readingType || e.isMeterReading) flushPending();
    }
  });

  function flushPending() {
    for (let i = 0; i < pending.length;) {
      const found = resolve(pending[i]!.up);
      if (found) {
        onBlock({ readings: pending[i]!.readings, readingType: found });
        pending.splice(i, 1);
      } else i++;
    }
  }

  function integer(v: string, what: string): number {
    if (!/^[-+]?\d+$/.test(v)) {
      error ??= new EspiError(`${what} at line ${parser.line} is not an integer: '${v.slice(0, 40)}'`);
      return 0;
    }
    return Number(v);
  }
  function number(v: string, what: string): number {
    if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(v)) {
      error ??= new EspiError(`${what} at line ${parser.line} is not a number: '${v.slice(0, 40)}'`);
      return 0;
    }
    return Number(v);
  }
  const check = () => {
    if (error) throw error;
  };

  return {
    write(chunk: string) {
      parser.write(chunk);
      check();
    },
    end() {
      parser.close();
      check();
      if (!sawRoot) throw new EspiError('not a Green Button file: no XML element');
      if (!sawEspi) throw new EspiError('not a Green Button file: no ESPI ReadingType, MeterReading or IntervalBlock');
      // Blocks whose MeterReading named no ReadingType found in the file: the file's only ReadingType, if it has one.
      for (const p of pending.splice(0)) {
        onBlock({ readings: p.readings, readingType: allReadingTypes.length === 1 ? allReadingTypes[0]! : null });
      }
    },
  };
}
