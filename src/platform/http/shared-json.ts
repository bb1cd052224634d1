import { promisify } from 'node:util';
import zlib from 'node:zlib';
import etag from 'etag';
import type { Request, Response } from 'express';
import { jsonBytes } from './json-bytes';

const gzip = promisify(zlib.gzip);

/** Below this a body goes as it is: compressing a few kilobytes saves less than it costs. */
const GZIP_MIN_BYTES = 8 * 1024;

interface Serialised {
  json: Buffer;
  etag: string;
  /** The gzip form, made once when a client first accepts it. */
  gzipped?: Promise<Buffer>;
}

/** Per answer object; an entry goes when its object is collected. */
const serialised = new WeakMap<object, Serialised>();

/** The entry's gzip form, made on first use; a failed compression is tried again next time. */
function gzippedOf(entry: Serialised): Promise<Buffer> {
  entry.gzipped ??= gzip(entry.json).catch((err: unknown) => {
    entry.gzipped = undefined;
    throw err;
  });
  return entry.gzipped;
}

/**
 * Sends an answer object that many requests share (an analytics answer, cached frozen per owner,
 * data version and month), serialised once for all of them, and gzipped once for the clients that
 * accept it (browsers, fetch, curl --compressed): the lists of 10,000 properties are 1 to 1.6 MB of
 * JSON that cost about 7 ms each to serialise and hash, and about 250 KB gzipped (decision 0011).
 * The ETag is the one Express would compute for the JSON (the `etag` package, weak, so the same for
 * both codings), and a conditional request is a 304 as on every other route. Only for objects
 * never changed after their first send: the analytics cache freezes its answers.
 */
export async function sendSharedJson(req: Request, res: Response, answer: object): Promise<void> {
  let entry = serialised.get(answer);
  if (!entry) {
    const json = jsonBytes(answer);
    entry = { json, etag: etag(json, { weak: true }) };
    serialised.set(answer, entry);
  }
  res.vary('Accept-Encoding').set('ETag', entry.etag).type('json');
  if (entry.json.length >= GZIP_MIN_BYTES && req.acceptsEncodings('gzip', 'identity') === 'gzip') {
    const body = await gzippedOf(entry);
    res.set('Content-Encoding', 'gzip').send(body);
  } else {
    res.send(entry.json);
  }
}
