import { cleanup, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Provenance, Source } from "../contract/envelopes.ts";
import type { License } from "../contract/license.ts";
import { olderFieldsSentence } from "./field-sources.ts";
import { facts, renderLicenseRoute, stubFetch } from "./render-license-route.tsx";

// NY 1268007 as New York's three lists make it: the 2019 extract's record, its address and type the 2016 list's.
const RABBIT: License = {
  object: "license",
  license: "1268007",
  business: "DEAD RABBIT TAVERN",
  owner: "DRT GROUP LLC",
  phone: null,
  state: "ny",
  status: "active",
  updated_at: "2026-11-22 09:00:00.000000",
  address: { line_1: "30 WATER STREET", line_2: null, city: "NEW YORK", county: "NEW YORK", state: "NY", zip: "10004" },
  dates: { ny: { effective: "2019-01-01", expires: "2020-12-31", issued_original: "2013-01-30", issued_latest: null } },
  details: { class: "252", description: "ON-PREMISES LIQUOR", type: "OP" },
};

const LIST_2016: Source = {
  id: 1,
  agency: "New York State Liquor Authority",
  title: "Liquor Authority Quarterly List of Active Licenses",
  coverage: "New York City on-premises liquor licenses only",
  file: "nyc_bars.csv",
  sha256: "ab".repeat(32),
  as_of: "2016-01-14",
  as_of_from: "the newest date in the file",
  loaded_at: "2026-11-22 09:00:00.000000",
  records: 3261,
};

const EXTRACT_2019: Source = {
  ...LIST_2016,
  id: 2,
  title: "Liquor Authority Quarterly List of Active Licenses (extract: serial, class, names, dates)",
  coverage: "active licenses of 57 classes, statewide, with no address",
  file: "itoschum_liquor.csv",
  sha256: "cd".repeat(32),
  as_of: "2019-07-30",
  records: 18340,
};

const MERGED: Provenance = {
  state: "ny",
  license: "1268007",
  as_of: "2019-07-30",
  source: EXTRACT_2019,
  fields: [
    { field: "address", as_of: "2016-01-14", source: LIST_2016 },
    { field: "type", as_of: "2016-01-14", source: LIST_2016 },
    { field: "description", as_of: "2016-01-14", source: LIST_2016 },
  ],
};

/** The service's answers: the license, and its provenance as given, or a 404 where the service has no such route. */
function service(provenance: Provenance | "no such route") {
  return (path: string) =>
    path.startsWith("/api/")
      ? new Response("Not found", { status: 404 })
      : path.startsWith("/v2/provenance/")
        ? provenance === "no such route"
          ? Response.json({ type: "about:blank", title: "Not Found", status: 404 }, { status: 404 })
          : Response.json({ data: provenance })
        : path.startsWith("/v2/history/")
          ? Response.json({ data: null })
          : path === "/v2/states"
            ? Response.json({ data: [] })
            : Response.json({ data: RABBIT });
}

const FROM_2016 = "From the 2016 list (as of January 14, 2016)";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(2026, 10, 22, 12));
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("a record whose fields come from different lists", () => {
  it("names the list and date beside each field an older list gives, and no other", async () => {
    stubFetch(service(MERGED));
    renderLicenseRoute("/license/ny/1268007");
    await screen.findByRole("heading", { level: 1, name: "DEAD RABBIT TAVERN" });
    const shown = facts();
    expect(shown.Address).toBe(`30 WATER STREETNEW YORK, NY 10004${FROM_2016}`);
    expect(shown.County).toBe(`NEW YORK${FROM_2016}`);
    expect(shown.Type).toBe(`OP ON-PREMISES LIQUOR${FROM_2016}`);
    expect(shown.Description).toBe(`ON-PREMISES LIQUOR${FROM_2016}`);
    for (const term of ["Business", "Owner", "Status", "Class", "Effective", "Expires", "First issued"]) {
      expect(shown[term], term).not.toContain("From the");
    }
  });

  it("says beside the record's date which fields are older, and from which list", async () => {
    stubFetch(service(MERGED));
    renderLicenseRoute("/license/ny/1268007");
    await screen.findByRole("heading", { level: 1, name: "DEAD RABBIT TAVERN" });
    expect(screen.getByRole("region", { name: "Verdict" }).textContent).toContain(
      "as of July 30, 2019. The address, county, type and description are from the 2016 list (as of January 14, 2016): the list of July 30, 2019 does not give them.",
    );
    const shown = facts();
    expect(shown["Data as of"]).toBe(
      "July 30, 2019 (the newest date in the file)" +
        "Address, county, type and description: January 14, 2016 (the newest date in the file)",
    );
    expect(shown.Source).toBe(
      "New York State Liquor Authority: Liquor Authority Quarterly List of Active Licenses (extract: serial, class, names, dates) (itoschum_liquor.csv)" +
        "Address, county, type and description: Liquor Authority Quarterly List of Active Licenses (nyc_bars.csv)",
    );
  });

  it("shows the page as before where the service names no field's list, or gives no provenance at all", async () => {
    const { fields: _, ...unmerged } = MERGED;
    for (const provenance of [unmerged, "no such route"] as const) {
      stubFetch(service(provenance));
      renderLicenseRoute("/license/ny/1268007");
      await screen.findByRole("heading", { level: 1, name: "DEAD RABBIT TAVERN" });
      expect(document.body.textContent).not.toMatch(/From the|list \(as of|does not give (it|them)/);
      expect(document.querySelectorAll(".facts__from")).toHaveLength(0);
      expect(facts().Address).toBe("30 WATER STREETNEW YORK, NY 10004");
      cleanup();
      vi.unstubAllGlobals();
    }
  });
});

describe("the sentence beside the record's source", () => {
  it("names each older list once, newest first, and says it or them as the fields are one or more", () => {
    const undated = { ...LIST_2016, id: 3, as_of: null };
    expect(
      olderFieldsSentence(
        { ...MERGED, fields: [{ field: "type", as_of: "2016-01-14", source: LIST_2016 }] },
        "2019-07-30",
      ),
    ).toBe("The type is from the 2016 list (as of January 14, 2016): the list of July 30, 2019 does not give it.");
    expect(
      olderFieldsSentence(
        {
          ...MERGED,
          fields: [
            { field: "description", as_of: null, source: undated },
            { field: "address", as_of: "2018-03-01", source: { ...LIST_2016, id: 4, as_of: "2018-03-01" } },
          ],
        },
        null,
      ),
    ).toBe(
      "The address and county are from the 2018 list (as of March 1, 2018) and the description is from an older list (its date not given): the newest list does not give them.",
    );
    expect(olderFieldsSentence({ ...MERGED, fields: [] }, "2019-07-30")).toBeNull();
    expect(olderFieldsSentence(null, null)).toBeNull();
  });
});
