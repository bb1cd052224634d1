import v8 from 'node:v8';

/*
 * Imported before anything else of a process role (roles.ts), so it applies to every way the
 * service is started (npm scripts, the Procfile, the Docker image, compose) without a flag on each
 * command line.
 *
 * --no-allocation-site-pretenuring: V8 learns, per allocation site, whether the objects it makes
 * tend to survive, and then allocates them straight in the old space. At start-up this service
 * builds long-lived objects (the table definitions, the tariff catalog) at the same sites that
 * later make short-lived per-request objects (drizzle's query chunks above all), so V8 decides to
 * tenure those sites and every request then leaves old-space garbage behind: about 13 KB per
 * request under the mixed load of the scale-out bench, a full collection every 10 s or so, each
 * stalling the process for 50 to 120 ms under a half-core CPU limit. Without pretenuring the same
 * load promotes about a fifth of that and goes minutes between full collections. V8 reads this flag
 * when it evaluates its feedback, after start-up, so setting it here takes effect.
 */
v8.setFlagsFromString('--no-allocation-site-pretenuring');

/*
 * The web role's heap flags are on its command lines instead (the npm scripts start:web and start,
 * the Dockerfile and docker-compose.yml; the bench starts the web process with the flags of
 * start:web): V8 sizes the heap when it is set up, so they do nothing here, and NODE_OPTIONS
 * refuses them. V8 sizes the heap for throughput; a web process is judged by its slowest
 * requests, and under a CPU limit of a fraction of a core (the scale-out bench) every pause
 * counts twice or more.
 *
 * --no-memory-reducer: the reducer waits for a process that looks idle and then runs a full
 * collection that shrinks the heap. A web process idle for a few seconds gets it just as traffic
 * comes back: a 20 to 60 ms pause and a second full collection seconds later. That took a process
 * serving 313 req/s from a p99 of 20 ms to 150-360 ms.
 *
 * --min-semi-space-size=32 --max-semi-space-size=32 (a young generation of a fixed size, twice
 * the default maximum): V8 shrinks the young generation at the first full collection after a quiet
 * spell, seen as a low allocation rate. Back under load, that process collected the young
 * generation four times as often, promoted request objects still in flight into the old space, and
 * made a full collection every 8 s for the next 20 to 30 s: four stalls of 100 to 270 ms in a 20 s
 * window (trace-gc, the scale-out bench; BENCH_NODE_FLAGS=--trace-gc shows it). Fixed at 16 MB,
 * the old space still grew by about 1 MB/s at 330 req/s (objects that outlive two young
 * collections, which at 16 MB come every 0.4 s); at 32 MB, by 0.2 MB/s at 460 req/s. The cost
 * is 32 MB more reserved for the young generation.
 *
 * --initial-old-space-size=256: with that flag V8 also skips full collections below that old
 * space size (its floor for the next collection's limit). Left to itself, it judged a full
 * collection cheap next to the allocation rate and ran one whenever the old space had grown by a
 * quarter: every 15 to 20 s at 330 req/s (61 MB live), each a 15 to 30 ms pause the requests
 * arriving meanwhile wait out, 40 to 65 of them slower than 30 ms, enough to be a 20 s window's
 * p99. With the floor and the larger young generation, none in the bench's 2-minute scenario after
 * start-up. The cost is memory: the heap grows to about 350 MB before a full collection.
 */
