/** Types of scripts/db-functions.mjs, for the test that reads the same files. */
export declare const DB_FUNCTION_FILES: string[];
export declare function statementsOf(text: string): string[];
