import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LicenseResponseSchema, SearchResponseSchema } from "../../src/contract/envelopes.ts";
import { ProblemSchema } from "../../src/contract/problem.ts";
import { generateLicenses } from "../data/demo/generate-licenses.ts";
import { licenseFixture } from "../testing/license-fixture.ts";
import { tempService } from "../testing/temp-service.ts";

let service: Awaited<ReturnType<typeof tempService>>;
let headers: Record<string, string>;

beforeAll(async () => {
  service = await tempService({
    ny: [
      ...generateLicenses("ny", 300),
      licenseFixture({ license: "9000001", business: "100% AGAVE BAR" }),
      licenseFixture({ license: "9000002", business: "UNDER_SCORE LOUNGE" }),
    ],
  });
  headers = (await service.keyFor(["ny"])).headers;
});
afterAll(() => service.close());

/** Percent-encodes every UTF-8 byte; a lone surrogate becomes the (invalid) bytes of its code unit. */
function encode(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const isHigh = unit >= 0xd800 && unit <= 0xdbff;
    const next = text.charCodeAt(i + 1);
    if (isHigh && next >= 0xdc00 && next <= 0xdfff) {
      out += [...Buffer.from(text.slice(i, i + 2))].map((b) => `%${b.toString(16).padStart(2, "0")}`).join("");
      i++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      out += `%${(0xe0 | (unit >> 12)).toString(16)}%${(0x80 | ((unit >> 6) & 0x3f)).toString(16)}%${(0x80 | (unit & 0x3f)).toString(16)}`;
    } else {
      out += [...Buffer.from(text[i]!)].map((b) => `%${b.toString(16).padStart(2, "0")}`).join("");
    }
  }
  return out;
}

const syntax = fc.constantFrom(
  "'",
  '"',
  "%",
  "_",
  "*",
  "\\",
  "NEAR(",
  "OR",
  "--",
  "AND",
  "NOT",
  "^",
  "-",
  "(",
  ")",
  ":",
  "{",
  "}",
  ";",
  "/*",
  "' OR 1=1 --",
  '"a" OR "b"',
  "rabbit*",
  "NEAR(a b, 2)",
  "col:val",
);
const unicode = fc.constantFrom(
  "e\u0301",
  "\u0301\u0301\u0301",
  "\u202Eevil",
  "\u05E9\u05DC\u05D5\u05DD",
  "🍺",
  "👨‍👩‍👧",
  "\uD800",
  "\uDFFF",
  "\uFEFF",
  "ß",
  "ﬁ",
  "Ⅻ",
  "İ",
  "\u200B",
);
const control = fc.constantFrom(
  "\u0000",
  "\u0001",
  "\u0007",
  "\t",
  "\n",
  "\r",
  "\u001B[31m",
  "\u007F",
  "\u0085",
  "\u009B",
);
const word = fc.constantFrom("bar", "tavern", "water", "st", "joe's", "a", "0012345", "ny");
const term = fc
  .tuple(
    fc.array(fc.oneof(syntax, unicode, control, word, fc.string({ maxLength: 8 })), { maxLength: 6 }),
    fc.constantFrom("", " "),
  )
  .map(([parts, glue]) => parts.join(glue));
const huge = fc.constantFrom("a".repeat(10_240), "%".repeat(10_240), "é".repeat(5_000), "\u0000".repeat(10_240));
const rawFragment = fc.constantFrom(
  "%",
  "%zz",
  "%E0%A4%A",
  "%C3",
  "%ED%A0%80",
  "%00",
  "%2F..%2F",
  "..%2F..%2Fetc%2Fpasswd",
  "%252F",
  "&",
  "=",
  "#frag",
  "+",
  "%2B",
);

/** A query string for /v2/search: sometimes well-formed, sometimes repeated, arrayed or raw. */
const searchQuery = fc.oneof(
  fc.tuple(fc.constantFrom("name", "address"), fc.oneof(term, huge)).map(([k, v]) => `state=ny&${k}=${encode(v)}`),
  fc
    .tuple(fc.constantFrom("name", "address"), rawFragment, term)
    .map(([k, raw, v]) => `state=ny&${k}=${encode(v)}${raw}`),
  fc.tuple(term, term).map(([a, b]) => `state=ny&name=${encode(a)}&name=${encode(b)}`),
  fc.tuple(term).map(([a]) => `state=ny&name[]=${encode(a)}`),
  fc.tuple(term).map(([a]) => `state[]=ny&name=${encode(a)}`),
  fc.tuple(term, term).map(([a, b]) => `state=${encode(a)}&address=${encode(b)}`),
  fc.tuple(term, term).map(([a, b]) => `state=ny&name=${encode(a)}&address=${encode(b)}`),
  fc.tuple(rawFragment, term).map(([raw, a]) => `${raw}state=ny&name=${encode(a)}`),
);
/** A license path segment: encoded hostile text, raw fragments, or path tricks. */
const licensePath = fc.oneof(
  fc
    .oneof(term, huge)
    .filter((t) => t.length > 0)
    .map(encode),
  fc.tuple(rawFragment, term).map(([raw, t]) => `${encode(t)}${raw}`),
  fc.constantFrom("..%2F..%2Fstates", "%2E%2E%2F", "0012345%00", "a/b/c", "..", ".", "%2e%2e", "\u0000"),
);

function checkShape(
  response: Awaited<ReturnType<typeof service.app.inject>>,
  success: typeof SearchResponseSchema | typeof LicenseResponseSchema,
) {
  expect(response.statusCode).toBeLessThan(500);
  expect(response.headers["x-request-id"]).toBeTruthy();
  if (response.statusCode === 200) {
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    success.parse(response.json());
  } else {
    expect([400, 404]).toContain(response.statusCode);
    expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(ProblemSchema.parse(response.json()).status).toBe(response.statusCode);
  }
}

describe("hostile input", () => {
  it("never gets a 5xx or a body outside the documented shapes: 6,000 searches", async () => {
    await fc.assert(
      fc.asyncProperty(searchQuery, async (query) => {
        checkShape(await service.app.inject({ url: `/v2/search?${query}`, headers }), SearchResponseSchema);
      }),
      { numRuns: 6000 },
    );
  }, 180_000);

  it("never gets a 5xx or a body outside the documented shapes: 4,000 license numbers", async () => {
    await fc.assert(
      fc.asyncProperty(licensePath, fc.constantFrom("ny", "NY", "zz", "n%00", "..%2F"), async (license, state) => {
        checkShape(
          await service.app.inject({ url: `/v2/license/${state}/${license}`, headers }),
          LicenseResponseSchema,
        );
      }),
      { numRuns: 4000 },
    );
  }, 180_000);

  it("searches a literal % or _ as text, not as a wildcard", async () => {
    const names = async (q: string) =>
      SearchResponseSchema.parse(
        (await service.app.inject({ url: `/v2/search?state=ny&name=${encodeURIComponent(q)}`, headers })).json(),
      ).data.map((l) => l.business);
    expect(await names("%")).toEqual([]);
    expect(await names("_")).toEqual([]);
    expect(await names("100%")).toEqual(["100% AGAVE BAR"]);
    expect(await names("under_score")).toEqual(["UNDER_SCORE LOUNGE"]);
    expect(await names('"*" OR NEAR(a b)')).toEqual([]);
  });

  it("does not let a path trick reach another route or file", async () => {
    for (const path of ["..%2F..%2Fstates", "..%2Fstates", "%2E%2E%2Fstates"]) {
      const response = await service.app.inject({ url: `/v2/license/ny/${path}`, headers });
      expect(response.json()).toEqual({ data: null });
    }
  });
});
