/** OpenAPI examples of the utility endpoints: the City & County of San Francisco (EIA 16612). */

/** The utility's id, name, abbreviation, state and type, as every answer starts. */
const sanFrancisco = {
  id: '16612',
  name: 'City & County of San Francisco',
  abbreviation: null,
  state: 'CA',
  type: 'municipal',
};

/** GET /utilities/search?q=Francisco. */
export const utilitySearchPage = {
  items: [
    {
      ...sanFrancisco,
      tariff_count: 1,
      website: null,
    },
  ],
  total: 1,
  page: 1,
  per_page: 20,
  pages: 1,
};

/** GET /utilities/by-zip/94103. */
export const utilitiesByZip = [
  {
    ...sanFrancisco,
    tariff_count: 1,
    primary: true,
    estimated_customers_in_county: 3155,
  },
];

/** GET /utilities/16612. */
export const utility = {
  ...sanFrancisco,
  website: null,
  phone: null,
  service_territory: null,
  customers_served: 3407,
  tariff_count: 1,
  zip_codes_served: 61,
  data_sources: {
    utility: {
      table: 'EIA Form 861 (utility data, sales, service territory, short form)',
      edition: 2018,
    },
    zip_codes: [
      {
        table: 'OpenEI U.S. Electric Utility Companies and Rates: Look-up by Zipcode, non-investor-owned utilities',
        edition: 2023,
        zip_codes: 59,
      },
      {
        table: 'ENERGY STAR Portfolio Manager utility map (via Rewiring America), matched to EIA ids by energystar_utility_match.csv',
        edition: 2025,
        zip_codes: 2,
      },
    ],
  },
};
