import { Router } from 'express';
import swaggerUi from 'swagger-ui-express';
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { buildOpenApiDocument, type OpenApiDocument } from './document';

/** GET /openapi.json (OpenAPI 3.1 from the routes' own zod schemas) and /docs (Swagger UI, served locally). */
export function docsRouter(registry: OpenAPIRegistry): Router {
  let document: OpenApiDocument | undefined;
  const build = () => (document ??= buildOpenApiDocument(registry));
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    res.json(build());
  });
  router.use(
    '/docs',
    swaggerUi.serveFiles(undefined, { swaggerUrl: '/openapi.json' }),
    swaggerUi.setup(undefined, {
      swaggerUrl: '/openapi.json',
      customSiteTitle: 'Energy Cost API reference',
    }),
  );
  return router;
}
