import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyReply, type FastifyRequest } from "fastify";
import { PROBLEM_CONTENT_TYPE } from "../../src/contract/problem.ts";

export interface WebAppOptions {
  /** The built app (`npm run build`'s dist/). */
  distDir: string;
  /** Where `/v2` goes, without the `/v2`. */
  apiBaseUrl: string;
  /** Added to every forwarded request here, so no browser ever holds it. */
  apiKey: string;
  logger?: boolean;
}

// What a browser needs from the service's answer; everything else stays behind.
const FORWARDED_HEADERS = ["content-type", "cache-control", "retry-after", "www-authenticate", "x-request-id"];
const UPSTREAM_TIMEOUT_MS = 15_000;

/** The production app: the built files, any app path answered with index.html, and `/v2` forwarded with the key. */
export async function buildWebApp({ distDir, apiBaseUrl, apiKey, logger = false }: WebAppOptions) {
  const app = Fastify({ logger });
  const upstream = apiBaseUrl.replace(/\/+$/, "");

  await app.register(fastifyStatic, {
    root: distDir,
    index: false,
    // Vite names built assets by content hash: they never change under the same name.
    setHeaders: (reply, path) => {
      reply.header("cache-control", path.includes("/assets/") ? "public, max-age=31536000, immutable" : "no-cache");
    },
  });

  app.get("/v2/*", async (request, reply) => forward(request, reply));

  const page = (reply: FastifyReply) => reply.header("cache-control", "no-cache").sendFile("index.html");
  app.get("/", (_request, reply) => page(reply));
  app.setNotFoundHandler((request, reply) => {
    // A pasted link such as /license/ny/0012345 is the app's to answer; a missing file is not.
    if (request.method === "GET" && request.headers.accept?.includes("text/html")) return page(reply);
    return reply.code(404).type("text/plain").send("Not found");
  });

  async function forward(request: FastifyRequest, reply: FastifyReply) {
    let answer: Response;
    try {
      answer = await fetch(upstream + request.url, {
        headers: { accept: request.headers.accept ?? "application/json", authorization: `Bearer ${apiKey}` },
        signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
      });
    } catch (error) {
      request.log.error({ err: error }, "license service unreachable");
      return reply.code(502).type(PROBLEM_CONTENT_TYPE).send({
        type: "about:blank",
        title: "Bad Gateway",
        status: 502,
        detail: "The license service could not be reached.",
      });
    }
    for (const name of FORWARDED_HEADERS) {
      const value = answer.headers.get(name);
      if (value !== null) reply.header(name, value);
    }
    return reply.code(answer.status).send(Buffer.from(await answer.arrayBuffer()));
  }

  return app;
}
