/**
 * Just enough of the Redis wire protocol (RESP) for the fake Redis servers of the outage tests:
 * a bulk-string reply, and one command read from the start of what a client has sent.
 */

/** A RESP bulk string. */
export const bulk = (text: string) => `$${Buffer.byteLength(text)}\r\n${text}\r\n`;

/** One RESP command (an array of bulk strings) from the start of `buffer`, or null if incomplete. */
export function parseCommand(buffer: string): { args: string[]; length: number } | null {
  const header = /^\*(\d+)\r\n/.exec(buffer);
  if (!header) return null;
  let at = header[0].length;
  const args: string[] = [];
  for (let i = 0; i < Number(header[1]); i++) {
    const len = /^\$(\d+)\r\n/.exec(buffer.slice(at));
    if (!len) return null;
    at += len[0].length;
    if (buffer.length < at + Number(len[1]) + 2) return null;
    args.push(buffer.slice(at, at + Number(len[1])));
    at += Number(len[1]) + 2;
  }
  return { args, length: at };
}
