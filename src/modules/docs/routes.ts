import { Router } from 'express';
import swaggerUi from 'swagger-ui-express';
import { OpenApiGeneratorV31, type OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { SERVICE_VERSION } from '../../platform/paths';

/** GET /openapi.json (OpenAPI 3.1 from the routes' own zod schemas) and /docs (Swagger UI, served locally). */
export function docsRouter(registry: OpenAPIRegistry): Router {
  let document: ReturnType<OpenApiGeneratorV31['generateDocument']> | undefined;
  const build = () =>
    (document ??= new OpenApiGeneratorV31(registry.definitions).generateDocument({
      openapi: '3.1.0',
      info: {
        title: 'Energy Tariff, Property Cost and Tenant Billing API',
        version: SERVICE_VERSION,
        description:
          'US utility tariffs and bill calculation, property energy-cost analytics, and tenant utility billing (RUBS). ' +
          'Errors are `{"detail": "..."}`; a 422 adds `errors: [{field, message}]`. Answers over 1 KB are gzipped for clients ' +
          'that accept it; a GET answer has an ETag, and an unchanged one is a 304 to `If-None-Match`.',
      },
      servers: [{ url: '/' }],
    }));
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    res.json(build());
  });
  router.use('/docs', swaggerUi.serveFiles(undefined, { swaggerUrl: '/openapi.json' }), swaggerUi.setup(undefined, {
    swaggerUrl: '/openapi.json',
    customSiteTitle: 'Energy Cost API reference',
  }));
  return router;
}
