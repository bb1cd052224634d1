/**
 * The whole database schema: each feature owns its tables in
 * src/modules/<feature>/tables.ts and re-exports them here, so drizzle-kit
 * and the typed client see one schema.
 */
export * from './tables';
