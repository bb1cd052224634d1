/** Utility types tenant billing (RUBS) splits; meters and bills have more (meters/units.ts). */
export const UTILITY_TYPES = ['electric', 'gas', 'water', 'sewer', 'trash'] as const;
export type UtilityType = (typeof UTILITY_TYPES)[number];
