import { startRoles } from './roles';
import { exitOnBootError } from './shutdown';

// `npm start`: every role in one process. Without REDIS_URL jobs run in-process; with it, through BullMQ workers here.
startRoles({ web: true, worker: true, scheduler: true }).catch(exitOnBootError);
