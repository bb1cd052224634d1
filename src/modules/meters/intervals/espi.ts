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

/** What the reader knows so far: the element path, the entry, ReadingType, block and reading being read, what it found. */
interface ReaderState {
  parser: SaxesParser<{ xmlns: false; position: true }>;
  onBlock: (block: EspiBlock) => void;
  stack: string[];
  entry: Entry | null;
  rt: ReadingTypeInfo | null;
  block: EspiReading[] | null;
  reading: Partial<EspiReading> | null;
  text: string;
  sawRoot: boolean;
  sawEspi: boolean;
  readingTypes: Map<string, ReadingTypeInfo>;
  allReadingTypes: ReadingTypeInfo[];
  meterReadingTypes: Map<string, string[]>;
  pending: Array<{ up?: string; readings: EspiReading[] }>;
  error: Error | null;
}

/** The ReadingType of a block whose entry's `up` link names its MeterReading; undefined while unknown. */
function resolve(s: ReaderState, up: string | undefined): ReadingTypeInfo | null | undefined {
  if (up) {
    const meterReading = up.replace(/\/IntervalBlock\/?$/, '');
    for (const href of s.meterReadingTypes.get(meterReading) ?? []) {
      const found = s.readingTypes.get(href);
      if (found) return found;
    }
  }
  return undefined;
}

function emit(s: ReaderState, up: string | undefined, readings: EspiReading[]): void {
  const found = resolve(s, up);
  if (found) s.onBlock({ readings, readingType: found });
  else s.pending.push({ up, readings });
}

function flushPending(s: ReaderState): void {
  for (let i = 0; i < s.pending.length;) {
    const found = resolve(s, s.pending[i]!.up);
    if (found) {
      s.onBlock({ readings: s.pending[i]!.readings, readingType: found });
      s.pending.splice(i, 1);
    } else i++;
  }
}

function integer(s: ReaderState, v: string, what: string): number {
  if (!/^[-+]?\d+$/.test(v)) {
    s.error ??= new EspiError(`${what} at line ${s.parser.line} is not an integer: '${v.slice(0, 40)}'`);
    return 0;
  }
  return Number(v);
}

function number(s: ReaderState, v: string, what: string): number {
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(v)) {
    s.error ??= new EspiError(`${what} at line ${s.parser.line} is not a number: '${v.slice(0, 40)}'`);
    return 0;
  }
  return Number(v);
}

function openTag(s: ReaderState, tag: SaxesTagPlain): void {
  const name = local(tag.name);
  if (!s.sawRoot) {
    s.sawRoot = true;
    if (!['feed', 'entry', 'IntervalBlock', 'UsagePoint', 'MeterReading', 'ReadingType'].includes(name)) {
      s.error ??= new EspiError(`not a Green Button file: the root element is <${tag.name}>, not an Atom <feed> or an ESPI resource`);
    }
  }
  s.stack.push(name);
  s.text = '';
  if (name === 'entry') s.entry = { related: [], isMeterReading: false, blocks: [] };
  else if (name === 'link' && s.entry) {
    const rel = String(tag.attributes.rel ?? '');
    const href = String(tag.attributes.href ?? '');
    if (rel === 'self') s.entry.self = href;
    else if (rel === 'up') s.entry.up = href;
    else if (rel === 'related') s.entry.related.push(href);
  } else if (name === 'ReadingType') {
    s.sawEspi = true;
    s.rt = { uom: null, powerOfTenMultiplier: 0, flowDirection: null };
  } else if (name === 'MeterReading') {
    s.sawEspi = true;
    if (s.entry) s.entry.isMeterReading = true;
  } else if (name === 'IntervalBlock') {
    s.sawEspi = true;
    s.block = [];
  } else if (name === 'IntervalReading' && s.block) s.reading = {};
}

/** An entry closed: its ReadingType and MeterReading links are known, its blocks go out (or wait), waiting blocks may resolve. */
function closeEntry(s: ReaderState, e: Entry): void {
  if (e.readingType && e.self) s.readingTypes.set(e.self, e.readingType);
  if (e.isMeterReading && e.self) s.meterReadingTypes.set(e.self, e.related);
  for (const b of e.blocks) emit(s, e.up, b);
  if (e.readingType || e.isMeterReading) flushPending(s);
}

function closeTag(s: ReaderState, tag: SaxesTagPlain): void {
  const name = local(tag.name);
  s.stack.pop();
  const parent = s.stack[s.stack.length - 1];
  const value = s.text.trim();
  s.text = '';
  const { rt, reading, block } = s;
  if (rt && parent === 'ReadingType') {
    if (name === 'uom') rt.uom = integer(s, value, 'ReadingType uom');
    else if (name === 'powerOfTenMultiplier') rt.powerOfTenMultiplier = integer(s, value, 'ReadingType powerOfTenMultiplier');
    else if (name === 'flowDirection') rt.flowDirection = integer(s, value, 'ReadingType flowDirection');
  } else if (name === 'ReadingType' && rt) {
    s.allReadingTypes.push(rt);
    if (s.entry) s.entry.readingType = rt;
    s.rt = null;
  } else if (reading && parent === 'timePeriod') {
    if (name === 'start') reading.start = integer(s, value, 'IntervalReading timePeriod start');
    else if (name === 'duration') reading.duration = integer(s, value, 'IntervalReading timePeriod duration');
  } else if (reading && parent === 'IntervalReading' && name === 'value') {
    reading.value = number(s, value, 'IntervalReading value');
  } else if (name === 'IntervalReading' && reading && block) {
    if (reading.start === undefined || reading.duration === undefined || reading.value === undefined) {
      s.error ??= new EspiError(
        `IntervalReading at line ${s.parser.line} lacks ${reading.start === undefined ? 'timePeriod start' : reading.duration === undefined ? 'timePeriod duration' : 'value'}`,
      );
    } else block.push(reading as EspiReading);
    s.reading = null;
  } else if (name === 'IntervalBlock' && block) {
    if (s.entry) s.entry.blocks.push(block);
    else emit(s, undefined, block);
    s.block = null;
  } else if (name === 'entry' && s.entry) {
    const e = s.entry;
    s.entry = null;
    closeEntry(s, e);
  }
}

/**
 * A streaming reader: write() chunks of text as they arrive, end() at the end; each IntervalBlock
 * is handed to `onBlock` as soon as its ReadingType is known (at the latest at end()).
 */
export function createEspiReader(onBlock: (block: EspiBlock) => void) {
  const s: ReaderState = {
    parser: new SaxesParser({ xmlns: false, position: true }),
    onBlock,
    stack: [],
    entry: null,
    rt: null,
    block: null,
    reading: null,
    text: '',
    sawRoot: false,
    sawEspi: false,
    readingTypes: new Map(),
    allReadingTypes: [],
    meterReadingTypes: new Map(),
    pending: [],
    error: null,
  };
  const { parser } = s;
  parser.on('error', (err) => {
    s.error ??= new EspiError(`not well-formed XML: ${err.message}`);
  });
  parser.on('opentag', (tag: SaxesTagPlain) => openTag(s, tag));
  parser.on('text', (t) => {
    s.text += t;
  });
  parser.on('closetag', (tag: SaxesTagPlain) => closeTag(s, tag));
  const check = () => {
    if (s.error) throw s.error;
  };

  return {
    write(chunk: string) {
      parser.write(chunk);
      check();
    },
    end() {
      parser.close();
      check();
      if (!s.sawRoot) throw new EspiError('not a Green Button file: no XML element');
      if (!s.sawEspi) throw new EspiError('not a Green Button file: no ESPI ReadingType, MeterReading or IntervalBlock');
      // Blocks whose MeterReading named no ReadingType found in the file: the file's only ReadingType, if it has one.
      for (const p of s.pending.splice(0)) {
        onBlock({ readings: p.readings, readingType: s.allReadingTypes.length === 1 ? s.allReadingTypes[0]! : null });
      }
    },
  };
}
