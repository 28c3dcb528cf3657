import Fastify from "fastify";
import type { AddressInfo } from "node:net";
import { buildApp } from "../server/service/app.ts";
import { bufferedStdout } from "../server/http/request-log.ts";
import type { SearchQuery } from "../src/contract/search-query.ts";
import { consistentReads, readInTurnSnapshots } from "../server/store/change-watch.ts";
import { datasetTables } from "../server/store/dataset-tables.ts";
import { openStateDb } from "../server/db/state-db.ts";
import { createKeyRepo } from "../server/service/key-repo.ts";
import { createLicenseRepo, type LicenseRepo } from "../server/store/license-repo.ts";
import { openDatabase } from "../server/store/open-database.ts";
import { createRankedSearch } from "../server/store/ranked-search.ts";
import { FIELDS_BY, searchTerms } from "../server/store/search-terms.ts";
import { statementCache } from "../server/store/statement-cache.ts";
import { LIMIT_OUT_OF_REACH } from "./limit-out-of-reach.ts";

// Child-process entry for `npm run bench:layers`: the API built with some of its layers, the
// store's answers read once and then served from memory, so what is left is what the layers cost.
//   fastify: Fastify and the two routes alone (no request id, key check, limit or log)
//   api:     buildApp (request id, key check, the routes' parameter checks), `+limit`, `+log` as given
//   +docs:   the documents read from SQLite on every request: license lookups as served; each
//            query's ranking (its row ids) done once and remembered, its 10 documents read each time
export type Layers = "fastify" | "api" | "api+limit" | "api+limit+log" | "api+limit+log+docs";

const [file, layers] = process.argv.slice(2) as [string, Layers];
const db = openDatabase(file);
readInTurnSnapshots(db);
const store = createLicenseRepo(db);
const licenses = layers.endsWith("+docs") ? rankingRemembered(store) : answeredFromMemory(store);

let app;
if (layers === "fastify") {
  app = Fastify();
  app.get("/v2/license/:state/*", (request, reply) => {
    const params = request.params as { state: string; "*": string };
    reply.type("application/json").send(`{"data":${licenses.get(params.state, params["*"]) ?? "null"}}`);
  });
  app.get("/v2/search", (request, reply) => {
    const { state, name, address } = request.query as Record<string, string>;
    const docs = licenses.search({ state: state!, by: name === undefined ? "address" : "name", q: name ?? address! });
    reply.type("application/json").send(`{"data":[${docs.join(",")}]}`);
  });
} else {
  const log = layers.includes("+log") ? bufferedStdout() : null;
  app = buildApp({
    licenses,
    keys: createKeyRepo(openStateDb({ sqlite: db })),
    logger: log ? { level: "info", stream: log.stream } : false,
    rateLimit: layers.includes("+limit") ? LIMIT_OUT_OF_REACH : false,
  });
}
await app.listen({ port: 0, host: "127.0.0.1" });
process.send!({ url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` });
process.once("SIGTERM", () => void app.close().then(() => process.exit(0)));

/** The store, each distinct question asked of it once: the bench's paths repeat, so reads stop. */
function answeredFromMemory(repo: LicenseRepo): LicenseRepo {
  const gets = new Map<string, string | null>();
  const searches = new Map<string, string[]>();
  return {
    ...repo,
    get(state, license) {
      const key = `${state}/${license}`;
      if (!gets.has(key)) gets.set(key, repo.get(state, license));
      return gets.get(key)!;
    },
    search(query) {
      const key = `${query.state}/${query.by}/${query.q}`;
      if (!searches.has(key)) searches.set(key, repo.search(query));
      return searches.get(key)!;
    },
  };
}

/** The store as served, except that each query is ranked once: its documents are still read each time. */
function rankingRemembered(repo: LicenseRepo): LicenseRepo {
  const rank = createRankedSearch(db);
  const prepared = statementCache(db);
  const liveDataset = db.prepare(`SELECT id FROM datasets WHERE state = ? AND status = 'live'`).pluck();
  const rankings = new Map<string, { rows: string; rowIds: number[] }>();
  const search = consistentReads(db, (query: SearchQuery): string[] => {
    const key = `${query.state}/${query.by}/${query.q}`;
    let ranking = rankings.get(key);
    if (!ranking) {
      const id = liveDataset.get(query.state) as number;
      ranking = {
        rows: datasetTables(id).rows,
        rowIds: rank(id, FIELDS_BY[query.by], searchTerms(query.by, query.q)!).rows,
      };
      rankings.set(key, ranking);
    }
    const docById = prepared(`SELECT doc FROM ${ranking.rows} WHERE id = ?`).pluck();
    return ranking.rowIds.map((rowId) => docById.get(rowId) as string);
  });
  return { ...repo, search };
}
