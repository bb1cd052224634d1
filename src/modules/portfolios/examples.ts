/** OpenAPI examples of the portfolio endpoints. */

export const createPortfolioRequest = { name: 'Rio Grande Valley', description: 'Multifamily in Cameron County' };

export const portfolio = {
  id: 'e42dd93e-88bc-49bd-84e7-fb9c49431b9f',
  name: 'Rio Grande Valley',
  description: 'Multifamily in Cameron County',
  owner_id: '3c1e9b2a-5d7f-4e8a-9b0c-1d2e3f4a5b6c',
  created_at: '2026-11-02T14:04:40.000Z',
};

export const portfolioPage = {
  items: [
    { id: portfolio.id, name: portfolio.name, description: portfolio.description, property_count: 1, created_at: portfolio.created_at },
  ],
  total: 1,
  page: 1,
  per_page: 20,
  pages: 1,
};

export const portfolioDetail = {
  ...portfolio,
  summary: { property_count: 1, total_monthly_cost: 0, total_annual_cost: 0, avg_cost_per_kwh: 0, total_sqft: 9600 },
};
