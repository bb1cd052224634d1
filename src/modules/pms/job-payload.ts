import { z } from 'zod';

/** Payload of the `pms-sync` queue: import the units of one linked property from the provider. */
export const pmsSyncJobPayload = z.object({ property_id: z.string().min(1) }).strict();
