import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod/mini";
import { stateCodeOf } from "../../../src/contract/states.ts";
import {
  MAX_WATCHED,
  WATCHLIST_API,
  WatchAddRequestSchema,
  WatchSeenRequestSchema,
  type WatchAddResult,
  type WatchEntry,
} from "../../../src/contract/watchlist.ts";
import { sendProblem } from "../../http/problem.ts";
import { refuseOtherSites } from "../../http/same-origin.ts";
import type { WatchlistService } from "./watchlist.ts";

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
    app.addHook("onRequest", refuseOtherSites("The watchlist can only be changed from the License Lookup app itself."));

    const license = (request: FastifyRequest<{ Params: LicenseParams }>) => ({
      state: stateCodeOf(request.params.state),
      license: request.params.license,
    });

    app.get(WATCHLIST_API, async () => ({ data: await watchlist.list() }));

    app.post(WATCHLIST_API, { bodyLimit: BODY_LIMIT, config: { body: "the rows" } }, async (request, reply) => {
      const parsed = z.safeParse(WatchAddRequestSchema, request.body);
      if (!parsed.success) {
        const rows = (request.body as { rows?: unknown } | null)?.rows;
        return sendProblem(
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
        return sendProblem(reply, 400, 'Send {"up_to": ID}, the id of the newest change shown to the clerk.');
      }
      const seen = await watchlist.markSeen(parsed.data.up_to);
      await onSeen?.(request, seen, parsed.data.zone);
      return reply.code(204).send();
    });

    app.get<{ Params: LicenseParams }>(`${WATCHLIST_API}/:state/:license`, async (request, reply) => {
      const { state, license: number } = license(request);
      if (state === null) return sendProblem(reply, 404, `“${request.params.state}” is not a state.`);
      return { data: await watchlist.entry(state, number) };
    });

    app.put<{ Params: LicenseParams }>(`${WATCHLIST_API}/:state/:license`, async (request, reply) => {
      const { state, license: number } = license(request);
      if (state === null) return sendProblem(reply, 404, `“${request.params.state}” is not a state.`);
      const [result] = (await watchlist.add([{ row: 1, state, license: number }])).rows as [WatchAddResult];
      if (result.outcome === "error") {
        const full = result.error!.startsWith("the watchlist is full");
        return sendProblem(reply, full ? 409 : { status: 422, title: "Not added" }, sentence(result.error!));
      }
      return { data: await watchlist.entry(state, number) };
    });

    app.delete<{ Params: LicenseParams }>(`${WATCHLIST_API}/:state/:license`, async (request, reply) => {
      const { state, license: number } = license(request);
      if (state !== null) await watchlist.remove(state, number);
      // Not watched (any more) is what the clerk asked for: no error either way.
      return reply.code(204).send();
    });

    app.all(`${WATCHLIST_API}/*`, (_request, reply) => sendProblem(reply, 404, "There is no such watchlist route."));
  };
}
