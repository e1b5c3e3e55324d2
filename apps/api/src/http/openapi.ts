import { createRequire } from 'node:module';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { FRONTEND_VERSION, type RouteDef } from '@edgekeep/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { served, toUrl } from './route';

const schemaOf = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' });

const parameters = (schema: z.ZodType | undefined, where: 'path' | 'query') => {
  if (!schema) return [];
  const json = schemaOf(schema, 'input') as { properties?: Record<string, object>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    schema: s,
  }));
};

/** A body of bytes (the agent's log batches) is gzip NDJSON; every other body is JSON. */
const mediaOf = (schema: z.ZodType) => (schema instanceof z.ZodCustom ? 'application/x-ndjson' : 'application/json');

/** The OpenAPI 3.0 document of every route the app serves, generated from the contract. */
export function openApiDocument(routes: RouteDef[]) {
  const paths: Record<string, Record<string, object>> = {};
  for (const def of routes) {
    const url = toUrl(def.path).replace(/:(\w+)/g, '{$1}');
    paths[url] ??= {};
    paths[url][def.method.toLowerCase()] = {
      operationId: def.id,
      summary: def.summary,
      tags: [def.tag],
      security: def.auth === 'node' ? [{ node: [] }] : def.public ? [] : [{ bearer: [] }],
      parameters: [...parameters(def.params, 'path'), ...parameters(def.query, 'query')],
      ...(def.body ? { requestBody: { content: { [mediaOf(def.body)]: { schema: schemaOf(def.body, 'input') } } } } : {}),
      responses: {
        200: { description: 'Success', content: { 'application/json': { schema: schemaOf(def.response, 'output') } } },
        default: { description: 'Error: { code, message, extra }', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
    };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'EdgeKeep API', version: FRONTEND_VERSION },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        node: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'An edge node\'s credential: `Node <credential>`' },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['code', 'message'],
          properties: { code: { type: 'integer' }, message: { type: 'string' }, extra: {}, errors: { type: 'array', items: { type: 'object' } } },
        },
      },
    },
  };
}

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>EdgeKeep API</title>
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css"></head><body><div id="ui"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script>SwaggerUIBundle({ url: '/api/docs/json', dom_id: '#ui', deepLinking: true });</script></body></html>`;

/** `/api/docs/json` (the document) and `/api/docs` (a browsable page, served from this machine). */
export async function registerDocs(app: FastifyInstance) {
  const assets = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  await app.register(fastifyStatic, { root: assets, prefix: '/api/docs/assets/', decorateReply: false, index: false });
  let doc: object | undefined;
  app.get('/api/docs/json', async () => (doc ??= openApiDocument(served.get(app) ?? [])));
  app.get('/api/docs', async (_req, reply) => reply.type('text/html').send(PAGE));
}
