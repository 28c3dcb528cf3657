import { screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { LogEntry } from "../contract/checks.ts";
import type { Provenance } from "../contract/envelopes.ts";
import type { License } from "../contract/license.ts";
import { stubFetch } from "../license/render-license-route.tsx";
import { renderRoutes } from "../shared/render-routes.tsx";
import { ReceiptPage } from "./receipt-page.tsx";

const RECORD: License = {
  object: "license",
  license: "1268007",
  business: "Hudson Wine & Spirits",
  owner: "Ada Moreno",
  phone: null,
  state: "ny",
  status: "active",
  updated_at: "2026-01-05 10:20:30.123456",
  address: { line_1: "12 Main St", line_2: null, city: "Albany", county: "Albany", state: "NY", zip: "12207" },
  dates: { ny: { effective: null, expires: "2016-12-31", issued_original: null, issued_latest: null } },
  details: { class: null, description: null, type: "OP" },
};
const PROVENANCE: Provenance = {
  state: "ny",
  license: "1268007",
  as_of: "2016-01-14",
  source: {
    id: 7,
    agency: "New York State Liquor Authority",
    title: "Liquor Authority Quarterly List of Active Licenses",
    coverage: "New York City on-premises liquor licenses only",
    file: "nyc_bars.csv",
    sha256: "ab".repeat(32),
    as_of: "2016-01-14",
    as_of_from: "the newest date in the file",
    loaded_at: "2026-11-22 09:00:00.000000",
    records: 6657,
  },
};
const ENTRY: LogEntry = {
  id: 42,
  at: "2027-03-03T15:02:00.000Z",
  zone: "America/New_York",
  action: "license page",
  user_email: "maria@example.com",
  user_name: "Maria Lopez",
  user_role: "member",
  state: "ny",
  license: "1268007",
  verdict: "expired",
  reason: "Expired on December 31, 2016; the state’s record still says “active”.",
  record_json: JSON.stringify(RECORD),
  record_sha256: "cd".repeat(32),
  provenance_json: JSON.stringify(PROVENANCE),
  source_sha256: "ab".repeat(32),
  as_of: "2016-01-14",
  detail: null,
  given_json: null,
  app_version: "1.4.0",
  prev_hash: "01".repeat(32),
  hash: "ef".repeat(32),
};

function serve(entry: LogEntry | null, record: License | null = RECORD, provenance: Provenance | null = PROVENANCE) {
  return stubFetch((path) =>
    path === `/api/checks/${entry?.id}`
      ? Response.json({
          data: { entry, record, provenance, given: entry?.given_json ? JSON.parse(entry.given_json) : null },
        })
      : Response.json(
          { type: "about:blank", title: "Not Found", status: 404, detail: "No such entry." },
          { status: 404, headers: { "content-type": "application/problem+json" } },
        ),
  );
}

const page = (id: number | string) =>
  renderRoutes([{ path: "/checks/:id", element: <ReceiptPage /> }], `/checks/${id}`);

beforeEach(() => {
  // The receipt tells the time of the check, never today's: a clock months later changes nothing.
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2027-09-01T12:00:00Z"));
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("a receipt", () => {
  it("tells who saw what, when in their own zone, and from which file, from the stored copy", async () => {
    serve(ENTRY);
    page(42);
    const sentence = await screen.findByText(/^Checked by/);
    expect(sentence.textContent).toBe(
      "Checked by Maria Lopez (maria@example.com) on March 3, 2027 at 10:02 EST: EXPIRED. " +
        "Expired on December 31, 2016; the state’s record still says “active”. " +
        `Source: New York State Liquor Authority, nyc_bars.csv (SHA-256 ${"ab".repeat(32)}), as of January 14, 2016.`,
    );
    // The record's fields as stored, its hash, the chain's two hashes, the version, and a way to print.
    expect(screen.getByText("Hudson Wine & Spirits")).toBeTruthy();
    expect(screen.getByText("cd".repeat(32))).toBeTruthy();
    expect(screen.getByText("01".repeat(32))).toBeTruthy();
    expect(screen.getByText("ef".repeat(32))).toBeTruthy();
    expect(screen.getByText("1.4.0")).toBeTruthy();
    expect(screen.getByText(JSON.stringify(RECORD))).toBeTruthy();
    screen.getByRole("button", { name: "Print" });
  });

  it("says a Verify row's line and what the clerk gave beside what the state's record names", async () => {
    const given = { line: 11, state: "NY", license: "1268007", business: "White Horse", address: "" };
    serve({
      ...ENTRY,
      action: "verify",
      verdict: "check",
      reason: "Number belongs to Hudson Wine & Spirits, not White Horse. Its record: expired.",
      given_json: JSON.stringify(given),
    });
    page(42);
    expect((await screen.findByText(/^Checked by/)).textContent).toBe(
      "Checked by Maria Lopez (maria@example.com) on March 3, 2027 at 10:02 EST, line 11 of a Verify list. " +
        "You gave NY, 1268007, White Horse; the state’s record names Hudson Wine & Spirits: CHECK. " +
        "Number belongs to Hudson Wine & Spirits, not White Horse. Its record: expired. " +
        `Source: New York State Liquor Authority, nyc_bars.csv (SHA-256 ${"ab".repeat(32)}), as of January 14, 2016.`,
    );
    const gave = screen.getByRole("region", { name: "What the clerk gave" });
    expect(gave.textContent).toBe(
      "What the clerk gaveLine of the list11StateNYLicense number1268007Business nameWhite HorseAddressNone given",
    );
  });

  it("says what the clerk gave where no record was matched, and names no source", async () => {
    const given = { line: 4, state: "NJ", license: "0101-33-5-3", business: "", address: "" };
    serve(
      {
        ...ENTRY,
        action: "verify",
        state: "nj",
        license: "0101-33-5-3",
        verdict: "check",
        reason: "Not found as written. Did you mean 0101-33-005-003 (BLACK CAT TAVERN)?",
        record_json: null,
        record_sha256: null,
        provenance_json: null,
        source_sha256: null,
        as_of: null,
        given_json: JSON.stringify(given),
      },
      null,
      null,
    );
    page(42);
    expect((await screen.findByText(/^Checked by/)).textContent).toBe(
      "Checked by Maria Lopez (maria@example.com) on March 3, 2027 at 10:02 EST, line 4 of a Verify list. " +
        "You gave NJ, 0101-33-5-3: CHECK. Not found as written. Did you mean 0101-33-005-003 (BLACK CAT TAVERN)?",
    );
  });

  it("tells the time in UTC when the clerk's browser gave no zone", async () => {
    serve({ ...ENTRY, zone: null });
    page(42);
    expect((await screen.findByText(/^Checked by/)).textContent).toMatch(/ on March 3, 2027 at 15:02 UTC: EXPIRED\./);
  });

  it("reads sensibly for an entry that is not a check", async () => {
    serve(
      {
        ...ENTRY,
        action: "role changed",
        user_email: "admin@example.com",
        user_name: null,
        user_role: "admin",
        state: null,
        license: null,
        verdict: null,
        reason: null,
        record_json: null,
        record_sha256: null,
        provenance_json: null,
        source_sha256: null,
        as_of: null,
        detail: "maria@example.com: role member → auditor",
      },
      null,
      null,
    );
    page(42);
    expect((await screen.findByText(/^Role changed/)).textContent).toBe(
      "Role changed by admin@example.com on March 3, 2027 at 10:02 EST: maria@example.com: role member → auditor.",
    );
    expect(screen.queryByText("The record as it was served")).toBeNull();
  });

  it("says there is no such entry for a number the record does not hold", async () => {
    serve(null);
    page(7);
    await screen.findByRole("heading", { name: "No entry “7”" });
  });
});
