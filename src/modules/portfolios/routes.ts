import type { ApiRouter } from '../../platform/http/router';
import { pageQuery, pageSchema } from '../../platform/http/pagination';
import { callerId } from '../../platform/http/auth';
import { getPageOfOwnList, onOwned } from '../../platform/http/owned-routes';
import { createPortfolioBody, portfolioDetail, portfolioIdParams, portfolioListItem, portfolioResponse } from './schemas';
import type { PortfolioService } from './service';
import * as ex from './examples';

const tags = ['Portfolios'];

export function registerPortfolioRoutes(api: ApiRouter, portfolios: PortfolioService): void {
  api.post(
    '/pm/portfolios',
    {
      summary: 'Create a portfolio',
      tags,
      auth: 'required',
      body: createPortfolioBody.meta({ example: ex.createPortfolioRequest }),
      status: 201,
      response: portfolioResponse.meta({ example: ex.portfolio }),
    },
    ({ body, req }) => portfolios.create(callerId(req), body),
  );

  getPageOfOwnList(
    api,
    '/pm/portfolios',
    {
      summary: "List the caller's portfolios",
      tags,
      query: pageQuery,
      response: pageSchema(portfolioListItem).meta({ example: ex.portfolioPage }),
    },
    portfolios.list,
  );

  onOwned(
    api,
    'get',
    '/pm/portfolios/:id',
    {
      summary: 'Portfolio detail with cost summary',
      description:
        "Costs are the properties' one annual cost, as portfolio analytics sums it: per utility type, the bills of the " +
        'last 12 complete months scaled to the year when at least 10 are billed, else (electric) the tariff estimate from the ' +
        'monthly usage. total_monthly_cost is the annual cost / 12; avg_cost_per_kwh is electric dollars over electric kWh. ' +
        'Properties without an annual cost count in property_count and total_sqft only.',
      tags,
      params: portfolioIdParams,
      response: portfolioDetail.meta({ example: ex.portfolioDetail }),
      notFound: 'Portfolio not found',
    },
    (ownerId, id) => portfolios.detail(ownerId, id),
  );
}
