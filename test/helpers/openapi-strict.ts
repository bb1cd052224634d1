import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** The parts of an OpenAPI 3.1 document this checker reads. */
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown>; parameters?: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
  [key: string]: unknown;
}

/**
 * Ajv for the OpenAPI 3.1 schema dialect (JSON Schema 2020-12 plus OpenAPI's own keywords), in
 * strict mode: an unknown keyword, a keyword on the wrong type or an ignored `format` is an error.
 * The document is added whole, so `#/components/...` references resolve.
 */
export function openApiAjv(doc: OpenApiDocument): Ajv2020 {
  // multipleOfPrecision: 0.07 is a multiple of 0.01 although 0.07 / 0.01 is 7.000000000000001 in binary floating point.
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true, validateFormats: true, multipleOfPrecision: 9 });
  addFormats(ajv);
  ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs']);
  // The document's own top-level fields, so it can be added whole as the base of the references.
  ajv.addVocabulary(['openapi', 'info', 'servers', 'paths', 'components', 'tags', 'security', 'webhooks', 'jsonSchemaDialect']);
  ajv.addSchema({ ...doc, $id: 'openapi.json' } as object, 'openapi.json');
  return ajv;
}

/** A JSON pointer to `path` of the document, as Ajv resolves it. */
export function pointer(path: Array<string | number>): string {
  return `openapi.json#/${path.map((p) => String(p).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
}

/**
 * What a strict OpenAPI 3.1 validator finds in the document beyond its structure (the
 * structure is @seriousme/openapi-schema-validator's): every schema compiles in Ajv's strict
 * mode, and every `default`, `example` and `examples` value is valid against its own schema.
 */
export function strictSchemaProblems(doc: OpenApiDocument): string[] {
  const ajv = openApiAjv(doc);
  const problems: string[] = [];
  const schemas: Array<Array<string | number>> = [];
  // Schema objects sit under `schema` (parameters, media types) and under components.schemas.
  const walk = (value: unknown, path: Array<string | number>) => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i]));
    else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key === 'schema' && child && typeof child === 'object') schemas.push([...path, key]);
        else walk(child, [...path, key]);
      }
    }
  };
  walk(doc.paths, ['paths']);
  walk(doc.components?.parameters ?? {}, ['components', 'parameters']);
  for (const name of Object.keys(doc.components?.schemas ?? {})) schemas.push(['components', 'schemas', name]);

  for (const path of schemas) {
    try {
      ajv.getSchema(pointer(path));
    } catch (err) {
      problems.push(`${path.join('/')}: ${(err as Error).message}`);
      continue;
    }
    // Every subschema with a default or an example, checked against itself.
    const visit = (node: unknown, at: Array<string | number>) => {
      if (Array.isArray(node)) return node.forEach((v, i) => visit(v, [...at, i]));
      if (!node || typeof node !== 'object') return;
      const schema = node as Record<string, unknown>;
      const samples: Array<[string, unknown]> = [];
      if ('default' in schema) samples.push(['default', schema.default]);
      if ('example' in schema) samples.push(['example', schema.example]);
      if (Array.isArray(schema.examples)) schema.examples.forEach((e, i) => samples.push([`examples/${i}`, e]));
      if (samples.length > 0) {
        const validate = ajv.getSchema(pointer(at))!;
        for (const [what, sample] of samples) {
          if (!validate(sample))
            problems.push(`${at.join('/')}: ${what} ${JSON.stringify(sample)} is not valid: ${ajv.errorsText(validate.errors)}`);
        }
      }
      for (const [key, child] of Object.entries(schema)) {
        if (key !== 'default' && key !== 'example' && key !== 'examples' && key !== 'enum' && key !== 'const') visit(child, [...at, key]);
      }
    };
    visit(
      path.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], doc),
      path,
    );
  }
  return problems;
}
