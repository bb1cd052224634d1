/**
 * What other modules may use of analytics' tables (the lint rule lets them import nothing else of
 * them): a read-only view of the ZIP codes accounts asked due diligence for, which the catalog
 * refresh counts among the deployment's utilities' ZIP codes.
 */
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { dueDiligenceZipCodes } from './tables';

/** Each ZIP code due diligence was asked for, by any account, and when last: read, never written. */
export const dueDiligenceZipView = new QueryBuilder()
  .select({ zipCode: dueDiligenceZipCodes.zipCode, lastUsedAt: dueDiligenceZipCodes.lastUsedAt })
  .from(dueDiligenceZipCodes)
  .as('due_diligence_zip_view');
