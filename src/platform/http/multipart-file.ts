import type { Readable } from 'node:stream';
import type { IncomingHttpHeaders } from 'node:http';
import busboy from 'busboy';
import { AppError, unprocessable } from './errors';

/** A request's headers and its unread body: what an import streams. */
export interface Upload {
  headers: IncomingHttpHeaders;
  body: Readable;
}

const notMultipartError = (what: string) => new AppError(415, `Content-Type must be multipart/form-data with ${what} in field "file"`);

/** Throws the 415 unless the request says it is multipart/form-data; `what` names the file ("the CSV"). */
export function requireMultipart(headers: IncomingHttpHeaders, what: string): void {
  if (
    !String(headers['content-type'] ?? '')
      .toLowerCase()
      .startsWith('multipart/form-data')
  )
    throw notMultipartError(what);
}

/**
 * Streams the one file of a multipart/form-data body (field `file`) through `handle`, reading it as
 * it arrives (busboy; at most `maxBytes`, other parts skipped): the bills and interval imports.
 * `what` names the file in the 415 ("the CSV"). A malformed body is a 400; no `file` part a 422.
 * `truncated()` tells `handle` whether the file was cut at `maxBytes` (busboy's `limit` event).
 */
export async function streamMultipartFile<T>(
  upload: Upload,
  opts: { maxBytes: number; what: string },
  handle: (file: Readable, truncated: () => boolean) => Promise<T>,
): Promise<T> {
  const { headers, body } = upload;
  requireMultipart(headers, opts.what);
  let bb: busboy.Busboy;
  try {
    bb = busboy({ headers, limits: { fileSize: opts.maxBytes, files: 1, fields: 20, parts: 30 } });
  } catch {
    throw notMultipartError(opts.what);
  }
  return new Promise<T>((resolve, reject) => {
    let work: Promise<T> | undefined;
    let failed = false;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      body.unpipe(bb);
      body.resume();
      reject(err);
    };
    bb.on('file', (name, stream) => {
      if (name !== 'file' || work) {
        stream.resume();
        return;
      }
      let truncated = false;
      stream.on('limit', () => {
        truncated = true;
      });
      work = handle(stream, () => truncated);
      work.catch(fail);
    });
    bb.on('error', () => fail(new AppError(400, 'Malformed multipart body')));
    bb.on('close', () => {
      if (failed) return;
      if (!work) return fail(unprocessable('field required', 'file'));
      work.then(resolve, fail);
    });
    body.on('error', fail);
    body.pipe(bb);
  });
}
