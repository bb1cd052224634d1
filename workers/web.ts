import { startRoles } from './roles';
import { exitOnBootError } from './shutdown';

// The `web` process of the Procfile: the HTTP API only (with REDIS_URL, jobs go to the `worker` process).
startRoles({ web: true }).catch(exitOnBootError);
