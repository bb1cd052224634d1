import { startRoles } from './roles';
import { exitOnBootError } from './shutdown';

// The `scheduler` process of the Procfile: cron ticks that enqueue jobs with deterministic ids.
startRoles({ scheduler: true, separateProcess: true }).catch(exitOnBootError);
