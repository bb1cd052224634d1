import { z } from 'zod';

/**
 * Metric tons CO2e as every emissions answer gives them. A file of its own: the emissions schemas
 * import the BERDO ones, which need it too.
 */
export const tons = z.number().meta({ description: 'metric tons CO2e, rounded to the kilogram' });
