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
