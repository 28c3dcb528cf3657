import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { License } from "../../src/contract/license.ts";

/** A license record as the contract gives it, with what a test names and the rest plain. */
export function licenseRecord(state: string, license: string, fields: Partial<License> = {}): License {
  return {
    object: "license",
    license,
    business: `BUSINESS ${license}`,
    owner: `OWNER ${license}`,
    phone: null,
    state,
    status: "Active",
    updated_at: "2026-11-01 00:00:00.000000",
    address: {
      line_1: "1 MAIN ST",
      line_2: null,
      city: "ALBANY",
      county: "ALBANY",
      state: state.toUpperCase(),
      zip: "12207",
    },
    dates: { [state]: { effective: "2025-01-01", expires: "2027-01-31", issued_original: null, issued_latest: null } },
    details: { class: null, description: null, type: "OP" },
    ...fields,
  };
}

export interface FakeServiceOptions {
  /** Answer our batch extension (`/v2/licenses/{state}`), or only the contract's routes. */
  batch?: boolean;
  /** States the key covers. */
  states?: readonly string[];
}

/**
 * A license service on a local port that holds what a test puts in `records` ("ny/0012345"), for the
 * app server's own tests: the contract's `/v2/license`, and, when asked, our batch extension.
 * `failNext` makes the next requests answer 503; `requests` counts every request.
 */
export async function startFakeService({ batch = true, states = ["ny", "ma"] }: FakeServiceOptions = {}) {
  const records = new Map<string, License>();
  const fake = { records, requests: 0, failNext: 0, url: "", close: async () => {} };
  const server: Server = createServer((req, res) => {
    fake.requests += 1;
    const url = new URL(req.url!, "http://x");
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": status < 300 ? "application/json" : "application/problem+json" });
      res.end(JSON.stringify(body));
    };
    const problem = (status: number, detail: string) =>
      send(status, { type: "about:blank", title: "", status, detail });
    if (fake.failNext > 0) {
      fake.failNext -= 1;
      return problem(503, "down for a test");
    }
    const one = /^\/v2\/license\/([a-z]{2})\/(.+)$/.exec(url.pathname);
    const list = /^\/v2\/(licenses|provenance)\/([a-z]{2})$/.exec(url.pathname);
    if (one) {
      if (!states.includes(one[1]!)) return problem(404, "State not available");
      return send(200, { data: records.get(`${one[1]}/${decodeURIComponent(one[2]!)}`) ?? null });
    }
    if (list && batch) {
      const state = list[2]!;
      if (!states.includes(state)) return problem(404, "State not available");
      const numbers = url.searchParams.getAll("license");
      return send(200, {
        data: numbers.map((n) => {
          const record = records.get(`${state}/${n}`);
          if (!record || list[1] === "licenses") return record ?? null;
          const source = {
            id: 1,
            agency: "Test Agency",
            title: "Test list",
            coverage: "every test license",
            file: "test.csv",
            sha256: "0".repeat(64),
            as_of: "2026-11-01",
            as_of_from: "given at import",
            loaded_at: "2026-11-02 00:00:00.000000",
            records: records.size,
          };
          return { state, license: n, as_of: "2026-11-01", source };
        }),
      });
    }
    return problem(404, "Not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}

export type FakeService = Awaited<ReturnType<typeof startFakeService>>;
