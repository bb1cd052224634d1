/**
 * What other modules may use of notifications' tables and repository (the lint rule lets them
 * import nothing else of them): the shape of a notification to create, which they hand to the
 * notification service.
 */

export type { NewNotification } from './repository';
