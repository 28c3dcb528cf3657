import swagger, { type StaticDocumentSpec } from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import type { OpenAPIObject } from "openapi3-ts/oas31";

export const DOCUMENT_PATH = "/v2/openapi.json";
export const DOCS_PATH = "/v2/docs";

// The page loads only the files served beside it (Swagger UI's own, from node_modules): no CDN,
// and nothing it could be led to fetch elsewhere. Swagger UI sets styles inline.
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * The API's own description, public as API documentation usually is: the document and a page
 * that renders it (Swagger UI). Registered in a context of its own, whose routes alone are public,
 * and outside the rate limit, which counts per key.
 */
export async function docsRoute(app: FastifyInstance, document: OpenAPIObject) {
  app.addHook("onRoute", (route) => {
    route.config = { ...route.config, public: true };
  });

  const json = JSON.stringify(document);
  app.get(DOCUMENT_PATH, (_request, reply) => {
    reply.type("application/json").send(json);
  });

  // Its types name OpenAPI 2 and 3.0 documents only; static mode serves the document it is given as it is.
  const specification = { document } as unknown as StaticDocumentSpec;
  await app.register(swagger, { mode: "static", specification });
  await app.register(swaggerUi, {
    routePrefix: DOCS_PATH,
    staticCSP: DOCS_CSP,
    theme: { title: "License Lookup v2 API" },
    uiConfig: {
      // Without the top bar: its box loads any URL's document, which this page has no use for.
      layout: "BaseLayout",
      docExpansion: "list",
      deepLinking: true,
      supportedSubmitMethods: ["get", "head"],
    },
  });
}
