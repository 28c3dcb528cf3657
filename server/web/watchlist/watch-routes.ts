import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod/mini";
import { PROBLEM_CONTENT_TYPE, type Problem } from "../../../src/contract/problem.ts";
import { stateCodeOf } from "../../../src/contract/states.ts";
import {
  MAX_WATCHED,
  WATCHLIST_API,
  WatchAddRequestSchema,
  WatchSeenRequestSchema,
  type WatchAddResult,
  type WatchEntry,
} from "../../../src/contract/watchlist.ts";
import type { WatchlistService } from "./watchlist.ts";

type Status = 400 | 403 | 404 | 409 | 415 | 422 | 500;

const TITLES: Record<Status, string> = {
  400: "Bad request",
  403: "Forbidden",
  404: "Not found",
  409: "Conflict",
  415: "Unsupported media type",
  422: "Not added",
  500: "Internal server error",
};

function problem(reply: FastifyReply, status: Status, detail: string) {
  const body: Problem = { type: "about:blank", title: TITLES[status], status, detail, request_id: reply.request.id };
  return reply.code(status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
}

// A list of 10,000 rows with long cells is well over Fastify's default megabyte.
const BODY_LIMIT = 8 * 1024 * 1024;

interface LicenseParams {
  state: string;
  license: string;
}

/** "no New York license “1” in our data: …" -> "No New York license “1” in our data: …." */
function sentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.?!]$/.test(text) ? "" : "."}`;
}

/** The watchlist's same-origin routes, under /api/watchlist, answered as JSON or problem+json. */
export function watchRoutes(
  watchlist: WatchlistService,
  {
    onSeen,
  }: {
    /** Told of the licenses whose changes a clerk marked seen: they were shown a verdict of each. */
    onSeen?: (request: FastifyRequest, entries: WatchEntry[], zone: string | undefined) => Promise<unknown>;
  } = {},
) {
  // Fastify takes a plugin that returns a promise, or one that calls done: this one has nothing to await.
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app: FastifyInstance) => {
    // A change may only come from the team's own pages: a browser names any other site's request as cross-site.
    app.addHook("onRequest", async (request, reply) => {
      const site = request.headers["sec-fetch-site"];
      if (request.method !== "GET" && request.method !== "HEAD" && site && site !== "same-origin" && site !== "none") {
        return problem(reply, 403, "The watchlist can only be changed from the License Lookup app itself.");
      }
    });
    app.setErrorHandler((error: { statusCode?: number; message: string }, request, reply) => {
      const status = error.statusCode;
      if (status === 415) return problem(reply, 415, "Send the rows as JSON (Content-Type: application/json).");
      if (status === 413) return problem(reply, 400, "The list is too large to send at once.");
      if (status !== undefined && status >= 400 && status < 500) return problem(reply, 400, error.message);
      request.log.error({ err: error }, "watchlist route failed");
      return problem(reply, 500, `The watchlist could not answer; the app's log names request ${request.id}.`);
    });

    const license = (request: FastifyRequest<{ Params: LicenseParams }>) => ({
      state: stateCodeOf(request.params.state),
      license: request.params.license,
    });

    app.get(WATCHLIST_API, async () => ({ data: await watchlist.list() }));

    app.post(WATCHLIST_API, { bodyLimit: BODY_LIMIT }, async (request, reply) => {
      const parsed = z.safeParse(WatchAddRequestSchema, request.body);
      if (!parsed.success) {
        const rows = (request.body as { rows?: unknown } | null)?.rows;
        return problem(
          reply,
          400,
          Array.isArray(rows) && rows.length > MAX_WATCHED
            ? `At most ${MAX_WATCHED.toLocaleString("en-US")} rows can be added at once; this list has ${rows.length.toLocaleString("en-US")}.`
            : `Send {"rows": [{"row": 1, "state": "NY", "license": "0012345"}, …]}: ${z.prettifyError(parsed.error)}`,
        );
      }
      return { data: await watchlist.add(parsed.data.rows) };
    });

    app.get(`${WATCHLIST_API}/check`, async () => ({ data: await watchlist.currentCheck() }));

    app.post(`${WATCHLIST_API}/check`, async (_request, reply) =>
      reply.code(202).send({ data: await watchlist.check("check now") }),
    );

    app.post(`${WATCHLIST_API}/seen`, async (request, reply) => {
      const parsed = z.safeParse(WatchSeenRequestSchema, request.body);
      if (!parsed.success) {
        return problem(reply, 400, 'Send {"up_to": ID}, the id of the newest change shown to the clerk.');
      }
      const seen = await watchlist.markSeen(parsed.data.up_to);
      await onSeen?.(request, seen, parsed.data.zone);
      return reply.code(204).send();
    });

    app.get<{ Params: LicenseParams }>(`${WATCHLIST_API}/:state/:license`, async (request, reply) => {
      const { state, license: number } = license(request);
      if (state === null) return problem(reply, 404, `“${request.params.state}” is not a state.`);
      return { data: await watchlist.entry(state, number) };
    });

    app.put<{ Params: LicenseParams }>(`${WATCHLIST_API}/:state/:license`, async (request, reply) => {
      const { state, license: number } = license(request);
      if (state === null) return problem(reply, 404, `“${request.params.state}” is not a state.`);
      const [result] = (await watchlist.add([{ row: 1, state, license: number }])).rows as [WatchAddResult];
      if (result.outcome === "error") {
        return problem(reply, result.error!.startsWith("the watchlist is full") ? 409 : 422, sentence(result.error!));
      }
      return { data: await watchlist.entry(state, number) };
    });

    app.delete<{ Params: LicenseParams }>(`${WATCHLIST_API}/:state/:license`, async (request, reply) => {
      const { state, license: number } = license(request);
      if (state !== null) await watchlist.remove(state, number);
      // Not watched (any more) is what the clerk asked for: no error either way.
      return reply.code(204).send();
    });

    app.all(`${WATCHLIST_API}/*`, (_request, reply) => problem(reply, 404, "There is no such watchlist route."));
  };
}
