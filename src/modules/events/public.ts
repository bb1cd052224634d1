/**
 * What other modules use of events: the event catalogue and the outbox they write to. A module
 * emits with `emit(list, tx)` in the transaction of the change, then calls `deliverSoon()` once
 * it has committed (README "Emitting an event").
 */
export { EVENT_TYPES, intervalsImportedEvent, type EventType, type EventDataByType, type NewEvent } from './event-types';
import type { EventService } from './service';

export type EventOutbox = Pick<EventService, 'emit' | 'deliverSoon'>;
