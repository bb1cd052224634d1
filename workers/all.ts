import { startWeb } from './roles';
import { exitOnBootError } from './shutdown';

// `npm start`: every role in one process (web, in-process jobs, scheduler).
startWeb().catch(exitOnBootError);
