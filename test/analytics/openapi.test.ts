import { useOpenApiDoc } from '../helpers/openapi';
import * as ex from '../../src/modules/analytics/examples';

describe('analytics in /openapi.json', () => {
  const op = useOpenApiDoc();

  it.each([
    ['/api/v1/pm/dashboard/stats', 'get', ex.dashboardStats],
    ['/api/v1/pm/dashboard/cost-trend', 'get', ex.costTrend],
    ['/api/v1/pm/dashboard/global-analytics', 'get', ex.globalAnalytics],
    ['/api/v1/pm/portfolios/{id}/analytics', 'get', ex.portfolioAnalytics],
    ['/api/v1/pm/properties/health', 'get', ex.health],
    ['/api/v1/pm/analytics/benchmarks', 'get', ex.benchmarks],
    ['/api/v1/pm/due-diligence', 'post', ex.dueDiligenceResponse],
  ] as const)('%s (%s) is listed with an example of its 200 answer', (path, method, example) => {
    const o = op(path, method);
    expect(o).toBeDefined();
    const content = o!.responses['200']!.content!;
    expect(Object.keys(content)).toEqual(['application/json']);
    expect(content['application/json']!.schema.example).toEqual(example);
  });

  it('due diligence documents its request body with the example request', () => {
    expect(op('/api/v1/pm/due-diligence', 'post')!.requestBody!.content['application/json']!.schema.example).toEqual(
      ex.dueDiligenceRequest,
    );
  });
});
