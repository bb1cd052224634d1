// The open-loop sender of the webhook acknowledgment figure (bench/scenarios/webhooks.ts), in a
// process of its own: `tsx bench/webhook-sender.ts '<json>'` prints the measured latencies as JSON.
// In the bench's main process, which by then holds what earlier scenarios built, its own garbage
// collections would pause the sender and count as the server's latency.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ackEvent, deliver, unitEvent } from './scenarios/webhooks';

interface SenderArgs {
  url: string;
  prefix: string;
  rate: number;
  seconds: number;
  warmupSeconds: number;
}

export interface SenderResult {
  /** Milliseconds from each send to its answer, sorted (the measured window only). */
  latencies: number[];
  /** Events sent in all, the warm-up's included (event i is ackEvent(i)). */
  sent: number;
  /** The sender's own event-loop delay over the measured window, ms. */
  loopP99Ms: number;
  loopMaxMs: number;
}

/**
 * Open loop, as a provider sends: request k leaves at k / rate seconds whatever the answers
 * before it did (a closed loop would slow down with the server and hide its queueing).
 */
async function openLoop(rate: number, seconds: number, send: () => Promise<void>): Promise<number[]> {
  const latencies: number[] = [];
  const started = performance.now();
  const inFlight: Array<Promise<void>> = [];
  for (let k = 0; k < rate * seconds; k++) {
    const wait = started + (k * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const sentAt = performance.now();
    inFlight.push(
      send().then(() => {
        latencies.push(performance.now() - sentAt);
      }),
    );
  }
  await Promise.all(inFlight);
  return latencies.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  const args = JSON.parse(process.argv[2]) as SenderArgs;
  let n = 0;
  const base = Date.now();
  const send = () => {
    const i = n++;
    const { stream, unit, version } = ackEvent(i);
    return deliver(args.url, unitEvent(`${args.prefix}c${stream}`, `P${stream}`, unit, version, base + i));
  };
  await openLoop(args.rate, args.warmupSeconds, send);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const latencies = await openLoop(args.rate, args.seconds, send);
  loop.disable();
  const result: SenderResult = { latencies, sent: n, loopP99Ms: loop.percentile(99) / 1e6, loopMaxMs: loop.max / 1e6 };
  process.stdout.write(JSON.stringify(result));
  process.exit(0);
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
