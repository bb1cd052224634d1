import { startWeb } from './roles';
import { exitOnBootError } from './shutdown';

// The `web` process of the Procfile: the HTTP API only (jobs go to Redis for `worker`).
startWeb().catch(exitOnBootError);
