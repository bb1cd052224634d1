/**
 * The whole database schema: each feature owns its tables in
 * src/modules/<feature>/tables.ts and re-exports them here, so drizzle-kit
 * and the typed client see one schema.
 */
export * from './tables';
export * from '../../modules/accounts/tables';
export * from '../../modules/portfolios/tables';
export * from '../../modules/properties/tables';
export * from '../../modules/meters/tables';
export * from '../../modules/bills/tables';
export * from '../../modules/notifications/tables';
export * from '../../modules/rate-analysis/tables';
export * from '../../modules/tariffs/tables';
export * from '../../modules/utilities/tables';
export * from '../../modules/tenant-billing/tables';
export * from '../../modules/pms/tables';
export * from '../../modules/webhooks/tables';
export * from '../../modules/analytics/tables';
export * from '../../modules/tariffs/custom/tables';
export * from '../../modules/audit/tables';
export * from '../../modules/emissions/tables';
export * from '../../modules/events/tables';
