/** The emissions fields of the analytics answers (README "Emissions and building-performance exposure"). */
import { z } from 'zod';

const money = z.number();
const ratio = z.number().nullable();

/** Dashboard stats' emissions and building-performance exposure (README "Emissions and building-performance exposure"). */
export const emissionsStats = {
  emissions_year: z.number().int().meta({
    description: 'the latest complete calendar year (the year before the current UTC month): the year of the emissions figures',
  }),
  emissions_tco2e: z.number().meta({
    description:
      "the properties' location-based emissions of emissions_year, metric tons CO2e (each as GET /pm/properties/{id}/emissions " +
      'gives it, rounded to the kilogram), summed: GET /pm/emissions?year=emissions_year',
  }),
  emissions_kg_co2e_per_sqft: ratio.meta({
    description: 'kg CO2e per sqft over the properties with sqft (their kg / their sqft, 3 decimals); null when none has sqft',
  }),
  properties_over_emissions_limit: z.number().int().meta({
    description:
      "properties whose projected building-performance penalty for emissions_year (its standard's compliance period) is above zero",
  }),
  projected_emissions_penalty: money.meta({
    description: 'their projected penalties summed (New York City Local Law 97: excess tons x $268)',
  }),
};

/** A property's emissions beside its benchmark value. */
export const benchmarkEmissions = {
  tco2e: z.number().meta({ description: 'location-based emissions of emissions_year, metric tons CO2e' }),
  kg_co2e_per_sqft: ratio.meta({ description: 'tco2e x 1000 / sqft, 3 decimals; null without sqft' }),
};
