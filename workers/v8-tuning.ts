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
 * --no-memory-reducer, for the web role (and `all`), is on its command lines instead: the npm
 * scripts start:web and start, the Dockerfile and docker-compose.yml; the bench starts the web
 * process with the flags of start:web. V8 creates its memory reducer when the heap is set up, so
 * the flag does nothing here, and NODE_OPTIONS refuses it. The reducer waits for a process that
 * looks idle and then runs a full collection that shrinks the heap and the young generation. A
 * web process idle for a few seconds gets it when traffic comes back: a 20 to 60 ms pause, then a
 * young generation half its size that collects twice as often and promotes more, and a second full
 * collection seconds later. Under a half-core CPU limit that took a process serving 313 req/s from
 * a p99 of 20 ms to 150-360 ms (the scale-out bench, whose phases are separated by idle pauses).
 * A web process's heap is sized by its load, not by its idle moments, so nothing is lost.
 */
