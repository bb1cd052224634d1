/** Utility types a bill can be for (the same set RUBS bills by). */
export const UTILITY_TYPES = ['electric', 'gas', 'water', 'sewer', 'trash'] as const;
export type UtilityType = (typeof UTILITY_TYPES)[number];
