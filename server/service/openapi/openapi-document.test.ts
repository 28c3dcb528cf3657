import { compileErrors, validate } from "@readme/openapi-parser";
import Ajv2020 from "ajv/dist/2020.js";
import type { HeaderObject, ReferenceObject, ResponseObject } from "openapi3-ts/oas31";
import type { RouteOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BATCH } from "../../../src/contract/envelopes.ts";
import { buildApp } from "../app.ts";
import { licenseFixture } from "../../testing/license-fixture.ts";
import { tempService } from "../../testing/temp-service.ts";
import { buildOpenApiDocument } from "./openapi-document.ts";
import { OPERATIONS } from "./operations.ts";

const document = buildOpenApiDocument();

type Service = Awaited<ReturnType<typeof tempService>>;
let service: Service;
let limited: Service;
let headers: Record<string, string>;
const registered: RouteOptions[] = [];

beforeAll(async () => {
  service = await tempService({
    ny: [
      licenseFixture({ license: "0012345", business: "DEAD RABBIT TAVERN" }),
      licenseFixture({
        license: "AB/12 #3",
        business: "HARBOR TAVERN",
        phone: "(212) 555-0100",
        address: { line_2: "2ND FLOOR" },
      }),
    ],
    ma: [licenseFixture({ state: "ma", license: "00780-RS-0116" })],
  });
  // Before the first request, when the app loads its plugins and registers its routes.
  service.app.addHook("onRoute", (route) => void registered.push(route));
  headers = (await service.keyFor(["ny"])).headers;
  // A limit no test can stay under: one request, then 429 for a long while.
  limited = await tempService({ ny: [licenseFixture()] }, { rateLimit: { perSecond: 0.01, burst: 1 } });
});
afterAll(async () => {
  await service.close();
  await limited.close();
});

describe("the OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await validate(structuredClone(document) as Parameters<typeof validate>[0]);
    expect(result.valid ? "" : compileErrors(result)).toBe("");
    expect(result.warnings).toEqual([]);
    expect(document.openapi).toMatch(/^3\.1\./);
  });

  it("names every keyed route the service has, and no other", async () => {
    await service.app.ready();
    const shape = (path: string) => path.replace(/\{[^}]+\}|:\w+|\*/g, "{}");
    // Read once all are registered: a plugin's own onRoute hooks (the docs' marks them public) run after this one.
    const routes = registered.filter((r) => r.method === "GET" && !r.config?.public).map((r) => shape(r.url));
    expect(new Set(routes)).toEqual(new Set(Object.keys(document.paths ?? {}).map(shape)));
  });
});

/** A real request, and where the document describes its answer: an operation's status, or a shared answer. */
interface Case {
  name: string;
  url: string;
  method?: "GET" | "POST";
  /** Whose key the request carries; the key for ny by default. */
  key?: "ny" | "none" | "unknown";
  /** The service it asks: the seeded one by default, one past its rate limit, or one whose store fails. */
  on?: "seeded" | "limited" | "failing";
  status: number;
  documented: { path: string } | { response: string };
}

const LICENSE = "/v2/license/{state}/{license}";
const PROVENANCE = "/v2/provenance/{state}/{license}";
const HISTORY = "/v2/history/{state}/{license}";
const LISTS = { licenses: "/v2/licenses/{state}", provenance: "/v2/provenance/{state}" };
const EXAMPLE_URL: Record<string, string> = {
  "/v2/search": "/v2/search?state=ny&name=tavern",
  "/v2/search-with-provenance": "/v2/search-with-provenance?state=ny&name=tavern",
  [LICENSE]: "/v2/license/ny/0012345",
  "/v2/states": "/v2/states",
  [PROVENANCE]: "/v2/provenance/ny/0012345",
  [HISTORY]: "/v2/history/ny/0012345",
  [LISTS.licenses]: "/v2/licenses/ny?license=0012345",
  [LISTS.provenance]: "/v2/provenance/ny?license=0012345",
};
const TOO_MANY = Array.from({ length: MAX_BATCH + 1 }, (_, i) => `license=${i}`).join("&");

const CASES: Case[] = [
  ...(
    [
      ["/v2/search?state=ny&name=tavern", "licenses found"],
      ["/v2/search?state=ny&address=nowhere%20at%20all", "nothing found"],
      ["/v2/search?state=ny", "neither name nor address", 400],
      ["/v2/search?name=tavern", "no state", 400],
      ["/v2/search?state=ma&name=tavern", "a state outside the key", 404],
      ["/v2/search?state=zz&name=tavern", "an unsupported state", 404],
    ] as const
  ).flatMap(([url, name, status = 200]) =>
    ["/v2/search", "/v2/search-with-provenance"].map((path) => ({
      name: `${path}, ${name}`,
      url: url.replace("/v2/search", path),
      status,
      documented: { path },
    })),
  ),
  ...(
    [
      ["/v2/license/ny/0012345", "a license without phone or second line"],
      [`/v2/license/ny/${encodeURIComponent("AB/12 #3")}`, "a license with both"],
      ["/v2/license/ny/9999999", "no such number"],
      ["/v2/license/ny/%E0%A4%A", "broken percent-encoding", 400],
      ["/v2/license/ma/00780-RS-0116", "a state outside the key", 404],
    ] as const
  ).map(([url, name, status = 200]) => ({ name: `license, ${name}`, url, status, documented: { path: LICENSE } })),
  { name: "states", url: "/v2/states", status: 200, documented: { path: "/v2/states" } },
  ...(
    [
      ["/v2/provenance/ny/0012345", "a license and its source"],
      ["/v2/provenance/ny/9999999", "no such number"],
      ["/v2/provenance/ny/%E0%A4%A", "broken percent-encoding", 400],
      ["/v2/provenance/ma/00780-RS-0116", "a state outside the key", 404],
    ] as const
  ).map(([url, name, status = 200]) => ({
    name: `provenance, ${name}`,
    url,
    status,
    documented: { path: PROVENANCE },
  })),
  ...(
    [
      ["/v2/history/ny/0012345", "a license's history"],
      ["/v2/history/ny/9999999", "no such number"],
      ["/v2/history/ny/%E0%A4%A", "broken percent-encoding", 400],
      ["/v2/history/ma/00780-RS-0116", "a state outside the key", 404],
    ] as const
  ).map(([url, name, status = 200]) => ({ name: `history, ${name}`, url, status, documented: { path: HISTORY } })),
  ...Object.entries(LISTS).flatMap(([route, path]) =>
    (
      [
        ["license=0012345&license=AB%2F12%20%233&license=9999999", "found and not found"],
        ["license=9999999", "no such number"],
        ["", "no license", 400],
        [TOO_MANY, `more than ${MAX_BATCH}`, 400],
        ["license=", "an empty number", 400],
      ] as const
    ).map(([query, name, status = 200]) => ({
      name: `${route} list, ${name}`,
      url: `/v2/${route}/ny?${query}`,
      status,
      documented: { path },
    })),
  ),
  ...Object.entries(LISTS).map(([route, path]) => ({
    name: `${route} list, a state outside the key`,
    url: `/v2/${route}/ma?license=00780-RS-0116`,
    status: 404,
    documented: { path },
  })),
  ...Object.entries(EXAMPLE_URL).flatMap(([path, url]): Case[] => [
    { name: `${path}, no key`, url, key: "none", status: 401, documented: { path } },
    { name: `${path}, an unknown key`, url, key: "unknown", status: 401, documented: { path } },
    { name: `${path}, past the rate limit`, url, on: "limited", status: 429, documented: { path } },
    { name: `${path}, a failing store`, url, on: "failing", status: 500, documented: { path } },
    { name: `${path}, POST`, url, method: "POST", status: 405, documented: { response: "MethodNotAllowed" } },
  ]),
  { name: "an unknown path", url: "/v2/permits/ny", status: 404, documented: { response: "NotFound" } },
];

const KEYS = {
  ny: () => headers,
  none: () => ({}),
  unknown: () => ({ authorization: `Bearer ll_${"A".repeat(43)}` }),
};

let failing: Service["app"] | undefined;
afterAll(() => failing?.close());

/** The app a case asks, and the headers that present its key. */
async function target({ on = "seeded", key = "ny" }: Case): Promise<[Service["app"], Record<string, string>]> {
  if (on === "limited") {
    const { headers: keyed } = await limited.keyFor(["ny"]);
    await limited.app.inject({ url: "/v2/states", headers: keyed });
    return [limited.app, keyed];
  }
  if (on === "failing") {
    const broken = () => {
      throw new Error("SQLITE_CORRUPT");
    };
    failing ??= buildApp({
      keys: service.keys,
      licenses: {
        ...service.licenses,
        search: broken,
        searchWithProvenance: broken,
        get: broken,
        coverage: broken,
        provenance: broken,
        getMany: broken,
        provenanceMany: broken,
        history: broken,
      },
      rateLimit: false,
    });
    return [failing, headers];
  }
  return [service.app, KEYS[key]()];
}

const ajv = new Ajv2020({ allErrors: true, strict: true });
// The document is not itself a schema: its own keys are declared so the schemas inside can be reached.
ajv.addVocabulary(["openapi", "info", "tags", "security", "paths", "components"]);
ajv.addSchema(document, "openapi.json");

const pointer = (...parts: (string | number)[]) =>
  parts.map((p) => `/${String(p).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");

/** Where the document keeps the answer a case expects, following a `$ref` to a shared answer. */
function describedAnswer(documented: Case["documented"], status: number): { at: string; answer: ResponseObject } {
  let at =
    "path" in documented
      ? pointer("paths", documented.path, "get", "responses", status)
      : pointer("components", "responses", documented.response);
  let answer = resolve<ResponseObject | ReferenceObject | undefined>(at);
  if (answer && "$ref" in answer) {
    at = answer.$ref.slice(1);
    answer = resolve<ResponseObject>(at);
  }
  if (!answer) throw new Error(`the document has no ${status} answer at ${at}`);
  return { at, answer };
}

function resolve<T>(at: string): T {
  return at
    .split("/")
    .slice(1)
    .map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], document) as T;
}

const checked = new Set<string>();

describe("each route's real answers match the document", () => {
  it.each(CASES)("$name: $status", async (c) => {
    const { at, answer } = describedAnswer(c.documented, c.status);
    const [app, keyHeaders] = await target(c);
    const response = await app.inject({ method: c.method ?? "GET", url: c.url, headers: keyHeaders });
    expect(response.statusCode).toBe(c.status);

    const [mediaType, ...others] = Object.keys(answer.content ?? {});
    expect(others).toEqual([]);
    expect(response.headers["content-type"]).toMatch(new RegExp(`^${mediaType!.replace("+", "\\+")}`));
    const matches = ajv.compile({ $ref: `openapi.json#${at}${pointer("content", mediaType!, "schema")}` });
    const body: unknown = response.json();
    expect(matches(body) ? [] : matches.errors).toEqual([]);

    for (const [name, header] of Object.entries(answer.headers ?? {})) {
      const { required } = "$ref" in header ? resolve<HeaderObject>(String(header.$ref).slice(1)) : header;
      if (required) expect(response.headers[name.toLowerCase()], name).toBeTruthy();
    }
    checked.add("path" in c.documented ? `${c.documented.path} ${c.status}` : c.documented.response);
  });

  it("has checked a real answer of every status the document lists", () => {
    const listed = OPERATIONS.flatMap((op) =>
      Object.keys(document.paths?.[op.path]?.get?.responses ?? {}).map((status) => `${op.path} ${status}`),
    );
    expect(listed.filter((entry) => !checked.has(entry))).toEqual([]);
    expect(checked).toContain("MethodNotAllowed");
    expect(checked).toContain("NotFound");
  });
});
