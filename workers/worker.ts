import { startRoles } from './roles';
import { exitOnBootError } from './shutdown';

// The `worker` process of the Procfile: BullMQ workers for every queue of the registry.
startRoles({ worker: true, separateProcess: true }).catch(exitOnBootError);
