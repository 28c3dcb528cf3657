import { screen, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { LicenseHistory, Provenance, Source } from "../contract/envelopes.ts";
import type { License } from "../contract/license.ts";
import css from "../index.css?raw";
import { renderLicenseRoute, stubFetch } from "./render-license-route.tsx";

// ---- District of Columbia: ABRA's rosters, 16 of them from 2005 to 2016 ----

const ABRA = "District of Columbia Alcoholic Beverage Regulation Administration";

function roster(id: number, asOf: string, file: string): Source {
  return {
    id,
    agency: ABRA,
    title: "ABC Licensees",
    coverage: "every license ABRA lists as issued in the District",
    file,
    sha256: `${id}`.padStart(64, "0"),
    as_of: asOf,
    as_of_from: "given at import",
    loaded_at: "2026-11-20 08:00:00.000000",
    records: 0,
  };
}

const LIST_2005 = roster(101, "2005-11-01", "ABCLicensees112005.xls");
const LIST_2009 = roster(105, "2009-12-01", "ABCLicensees122009.xls");
const LIST_2010 = roster(106, "2010-11-01", "ABCLicensees112010.xls");
const LIST_2011 = roster(107, "2011-10-01", "ABCLicensees102011.xls");
const LIST_2012_04 = roster(108, "2012-04-25", "DistrictABCLicensees4252012.xls");
const LIST_2012_12 = roster(110, "2012-12-13", "DistrictABCLicensees12132012.xls");
const LIST_2014_01 = roster(112, "2014-01-27", "DistrictABCLicenseeList1272014.xls");
const LIST_2014_08 = roster(114, "2014-08-27", "DistrictABCLicenseeLists-8272014.xls");
const LIST_2015 = roster(115, "2015-07-07", "DistrictABCLicensees-772015.xlsx");
const LIST_2016 = { ...roster(116, "2016-08-04", "DistrictABCLicenseeList842016.xls"), records: 1926 };

const DISTRICT_LIQUORS: License = {
  object: "license",
  license: "ABRA-000023",
  business: "District Liquors",
  owner: "Don Ho Inc",
  phone: null,
  state: "dc",
  status: "Active",
  updated_at: "2026-11-20 08:00:00.000000",
  address: { line_1: "1211 11TH ST NW", line_2: null, city: "Washington", county: "", state: "DC", zip: "20001" },
  dates: { dc: { effective: null, expires: null, issued_original: null, issued_latest: null } },
  details: { class: "A", description: null, type: "Retail - Liquor Store" },
};

/** District Liquors: named by every list, 2005 to 2016; its owner's name written otherwise from 2014. */
const DISTRICT_LIQUORS_HISTORY: LicenseHistory = {
  state: "dc",
  license: "ABRA-000023",
  entries: [
    {
      event: "changed",
      date: "2014-01-27",
      since: "2012-12-13",
      source: 112,
      changes: [{ field: "owner", license_type: null, from: "Don Ho, Inc.", to: "Don Ho Inc" }],
    },
    {
      event: "first_seen",
      date: "2005-11-01",
      since: null,
      source: 101,
      // A list's first entry holds no copy of the record: it is the record, less the changes after.
      changes: [],
    },
  ],
  listings: [{ from: "2005-11-01", to: "2016-08-04", lists: 16, first_source: 101, last_source: 116 }],
  sources: [LIST_2005, LIST_2012_12, LIST_2014_01, LIST_2016],
};

/** Press Liquors under its new number: first named by the list of November 2010. */
const PRESS_LIQUORS_HISTORY: LicenseHistory = {
  state: "dc",
  license: "ABRA-076197",
  entries: [
    {
      event: "first_seen",
      date: "2010-11-01",
      since: "2009-12-01",
      source: 106,
      changes: [],
    },
  ],
  listings: [{ from: "2010-11-01", to: "2016-08-04", lists: 10, first_source: 106, last_source: 116 }],
  sources: [LIST_2009, LIST_2010, LIST_2016],
};

/** A license missing from the lists of 2011, back in 2012, and gone since 2015: no live record. */
const GONE_HISTORY: LicenseHistory = {
  state: "dc",
  license: "ABRA-012345",
  entries: [
    {
      event: "no_longer_listed",
      date: "2015-07-07",
      since: "2014-08-27",
      source: 115,
      // What it was last listed as: no record says it any more.
      changes: [
        { field: "business", license_type: null, from: "Capitol Hill Wine & Spirits", to: null },
        { field: "owner", license_type: null, from: "CHWS LLC", to: null },
        { field: "class", license_type: null, from: "A", to: null },
      ],
    },
    { event: "listed_again", date: "2012-04-25", since: "2011-10-01", source: 108, changes: [] },
    { event: "no_longer_listed", date: "2011-10-01", since: "2010-11-01", source: 107, changes: [] },
    { event: "first_seen", date: "2005-11-01", since: null, source: 101, changes: [] },
  ],
  listings: [
    { from: "2005-11-01", to: "2010-11-01", lists: 6, first_source: 101, last_source: 106 },
    { from: "2012-04-25", to: "2014-08-27", lists: 7, first_source: 108, last_source: 114 },
  ],
  sources: [LIST_2005, LIST_2010, LIST_2011, LIST_2012_04, LIST_2014_08, LIST_2015],
};

// ---- California: ABC's daily status-change reports, one archive of 234 days ----

const ABC_REPORTS: Source = {
  id: 201,
  agency: "California Department of Alcoholic Beverage Control",
  title: "ABC Daily Licensing Reports: Status Changes",
  coverage: "licenses whose status changed between 2023-05-09 and 2024-04-01",
  file: "ca_abc_daily_status_change_reports_2023-05-09_to_2024-04-01.tar.gz",
  sha256: "c".repeat(64),
  as_of: "2024-04-01",
  as_of_from: "the newest date in the file",
  loaded_at: "2026-11-20 08:00:00.000000",
  records: 16039,
};

function caLicense(license: string, business: string, status: string, type: string, expires: string): License {
  return {
    ...DISTRICT_LIQUORS,
    license,
    business,
    owner: "",
    state: "ca",
    status,
    address: { line_1: "", line_2: null, city: "", county: "", state: "CA", zip: "" },
    dates: { ca: { effective: "2023-05-09", expires, issued_original: null, issued_latest: null } },
    details: { class: null, description: null, type },
  };
}

const KITCHEN_THE = caLicense("535296", "KITCHEN THE", "cancelled", "47", "2023-10-31");
const KITCHEN_THE_HISTORY: LicenseHistory = {
  state: "ca",
  license: "535296",
  entries: [
    {
      event: "first_seen",
      date: "2023-05-09",
      since: null,
      source: 201,
      changes: [{ field: "status", license_type: "47", from: "active", to: "cancelled" }],
    },
  ],
  listings: [],
  sources: [ABC_REPORTS],
};

const DOMINICS = caLicense("578170", "DOMINIC'S RISTORANTE ITALIANO", "active", "47", "2024-04-30");
const DOMINICS_HISTORY: LicenseHistory = {
  state: "ca",
  license: "578170",
  entries: [
    {
      event: "changed",
      date: "2023-05-12",
      since: null,
      source: 201,
      changes: [{ field: "status", license_type: "41", from: "active", to: "cancelled" }],
    },
    {
      event: "first_seen",
      date: "2023-05-10",
      since: null,
      source: 201,
      changes: [{ field: "status", license_type: "47", from: "pending", to: "active" }],
    },
  ],
  listings: [],
  sources: [ABC_REPORTS],
};

// ---- The service ----

let requested: string[];
let reply: (path: string) => Response | Promise<Response>;

function problem(status: number, type: string, detail: string) {
  return Response.json(
    { type, title: "Not Found", status, detail },
    { status, headers: { "content-type": "application/problem+json" } },
  );
}

/** Our service with its history extension: the license (or null), its history, and what the state's data covers. */
function ourService(license: License | null, history: LicenseHistory | null, sources: Source[] = [LIST_2016]) {
  return (path: string) => {
    if (path.startsWith("/v2/history/")) return Response.json({ data: history });
    if (path.startsWith("/v2/provenance/")) {
      const source = license?.state === "ca" ? ABC_REPORTS : LIST_2016;
      const provenance: Provenance | null = license && {
        state: license.state,
        license: license.license,
        as_of: source.as_of,
        source,
      };
      return Response.json({ data: provenance });
    }
    if (path === "/v2/states")
      return Response.json({ data: [{ state: "dc", name: "District of Columbia", records: 1926, sources }] });
    return Response.json({ data: license });
  };
}

beforeEach(() => {
  requested = stubFetch((path) => reply(path));
  // Only Date is faked: the router and the query client run on real timers.
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(2026, 10, 22, 12));
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** The history section, once the page shows. */
async function historySection(): Promise<HTMLElement> {
  return screen.findByRole("region", { name: "History" });
}

/** Each timeline entry's text, newest first. */
function entries(section: HTMLElement): string[] {
  return within(section)
    .getAllByRole("listitem")
    .filter((item) => item.classList.contains("history__entry"))
    .map((item) => item.textContent ?? "");
}

describe("a license's history on its page", () => {
  it("says what changed between two lists, when it was first listed, and that every list named it", async () => {
    reply = ourService(DISTRICT_LIQUORS, DISTRICT_LIQUORS_HISTORY);
    renderLicenseRoute("/license/dc/ABRA-000023");
    const section = await historySection();
    expect(requested).toContain("/v2/history/dc/ABRA-000023");
    expect(section.querySelector(".history__listings")?.textContent).toBe(
      "Listed in all 16 lists from November 1, 2005 to August 4, 2016.",
    );
    expect(entries(section)).toEqual([
      "Changed between the lists of December 13, 2012 and January 27, 2014" +
        "Owner changed from Don Ho, Inc. to Don Ho Inc" +
        "Source: ABC Licensees (DistrictABCLicenseeList1272014.xls)",
      "First listed in the list of November 1, 2005" + "Source: ABC Licensees (ABCLicensees112005.xls)",
    ]);
    // Each date a machine can read, too.
    const [changed] = within(section).getAllByRole("listitem");
    expect([...changed!.querySelectorAll("time")].map((t) => t.dateTime)).toEqual(["2012-12-13", "2014-01-27"]);
    // The source's agency, on hover.
    expect(section.querySelector("cite[title]")?.getAttribute("title")).toBe(`${ABRA}: ABC Licensees`);
  });

  it("shows the page once, with its history: never the record first and the history after", async () => {
    const service = ourService(DISTRICT_LIQUORS, DISTRICT_LIQUORS_HISTORY);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    reply = (path) => (path.startsWith("/v2/history/") ? held.then(() => service(path)) : service(path));
    renderLicenseRoute("/license/dc/ABRA-000023");
    // The record is in, the history is not: nothing of the page shows yet. (Were the page to show the
    // record without waiting for its history, it would within 600 ms: React reveals in 300 ms steps.)
    await vi.waitFor(() => expect(requested).toContain("/v2/provenance/dc/ABRA-000023"));
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(screen.queryByRole("heading", { level: 1 })).toBeNull();
    release();
    await screen.findByRole("heading", { level: 1, name: "District Liquors" });
    expect(screen.getByRole("region", { name: "History" }).textContent).toContain("Listed in all 16 lists");
  });

  it("says a license first seen after an earlier list was not in that list", async () => {
    const press = { ...DISTRICT_LIQUORS, license: "ABRA-076197", business: "Press Liquors" };
    reply = ourService(press, PRESS_LIQUORS_HISTORY);
    renderLicenseRoute("/license/dc/ABRA-076197");
    const section = await historySection();
    expect(entries(section)[0]).toMatch(
      /^First listed in the list of November 1, 2010 \(not in the list of December 1, 2009\)Source/,
    );
  });

  it("dates a California change by its daily report, per license type, in the table's words", async () => {
    reply = ourService(DOMINICS, DOMINICS_HISTORY);
    renderLicenseRoute("/license/ca/578170");
    const section = await historySection();
    const source =
      "Source: ABC Daily Licensing Reports: Status Changes (ca_abc_daily_status_change_reports_2023-05-09_to_2024-04-01.tar.gz)";
    expect(entries(section)).toEqual([
      `Changed on May 12, 2023Type 41 (On-Sale Beer & Wine - Eating Place): cancelled, was active${source}`,
      `First reported on May 10, 2023Type 47 (On-Sale General - Eating Place): active, was pending (application pending)${source}`,
    ]);
    // A source of changes is not a list: no summary of lists, and nothing said to be "listed".
    expect(section.querySelector(".history__listings")).toBeNull();
    expect(section.textContent).not.toMatch(/listed/i);
  });

  it("shows a California license first seen being cancelled as that change", async () => {
    reply = ourService(KITCHEN_THE, KITCHEN_THE_HISTORY);
    renderLicenseRoute("/license/ca/535296");
    const section = await historySection();
    expect(entries(section)).toEqual([
      expect.stringMatching(
        /^First reported on May 9, 2023Type 47 \(On-Sale General - Eating Place\): cancelled, was activeSource/,
      ),
    ]);
    expect(within(section).getByText("May 9, 2023").getAttribute("datetime")).toBe("2023-05-09");
  });

  it("names every source with its agency, file, date and checksum, in what prints", async () => {
    const print = vi.fn();
    vi.stubGlobal("print", print);
    reply = ourService(DISTRICT_LIQUORS, DISTRICT_LIQUORS_HISTORY);
    renderLicenseRoute("/license/dc/ABRA-000023");
    const section = await historySection();
    await userEvent.click(screen.getByRole("button", { name: "Print record" }));
    expect(print).toHaveBeenCalled();

    // The printout is the record's article: the history is in it, and no rule for paper hides it.
    expect(section.closest("article.license")).not.toBeNull();
    for (const selector of hiddenOnPaper()) expect(section.closest(selector), selector).toBeNull();
    const sources = within(section).getByRole("heading", { name: "Sources" }).parentElement!;
    expect(
      within(sources)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toContain(
      `${ABRA}, ABC Licensees (DistrictABCLicenseeList1272014.xls): every license ABRA lists as issued in the District; ` +
        "data as of January 27, 2014 (given at import); loaded into License Lookup November 20, 2026, 08:00:00 UTC. " +
        `SHA-256 ${"112".padStart(64, "0")}`,
    );
  });

  it("shows the record, and says quietly that no history is kept, from a service without the extension", async () => {
    reply = (path) =>
      path.startsWith("/v2/history/")
        ? problem(404, "about:blank", "Route GET:/v2/history/ca/535296 not found")
        : ourService(KITCHEN_THE, null)(path);
    renderLicenseRoute("/license/ca/535296");
    await screen.findByRole("heading", { level: 1, name: "KITCHEN THE" });
    expect(screen.getByRole("region", { name: "Verdict" }).textContent).toContain("Not in force: cancelled.");
    expect((await historySection()).textContent).toBe("HistoryThe service keeps no history of this license.");
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("keeps the record on screen when the history fails, says so, and tries again", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    let fail = true;
    reply = (path) =>
      path.startsWith("/v2/history/") && fail
        ? Response.json({ type: "about:blank", title: "Internal", status: 500, detail: "boom" }, { status: 500 })
        : ourService(DOMINICS, DOMINICS_HISTORY)(path);
    renderLicenseRoute("/license/ca/578170");
    const section = await historySection();
    expect(screen.getByRole("heading", { level: 1, name: "DOMINIC'S RISTORANTE ITALIANO" })).toBeTruthy();
    expect(section.textContent).toContain("The license’s history could not be fetched.");
    fail = false;
    // The notice's code loads after the page (a lazy chunk): wait for its button rather than expect it at once.
    await userEvent.click(await within(section).findByRole("button", { name: "Try again" }));
    await screen.findByText(/First reported on/);
    expect(screen.queryByText("The license’s history could not be fetched.")).toBeNull();
    expect(screen.getByRole("heading", { level: 1, name: "DOMINIC'S RISTORANTE ITALIANO" })).toBeTruthy();
    errors.mockRestore();
  });
});

describe("a number no list names any more", () => {
  it("says it is no longer listed and when it last was, shows its gaps, and never calls it valid", async () => {
    reply = ourService(null, GONE_HISTORY);
    renderLicenseRoute("/license/dc/ABRA-012345");
    const section = await historySection();
    const verdict = screen.getByRole("region", { name: "Verdict" });
    expect(verdict.textContent).toContain(
      "ABRA-012345 is no longer listed: the list of July 7, 2015 does not name it; it was last listed in the list of August 27, 2014.",
    );
    expect(within(verdict).getByText("not found")).toBeTruthy();
    expect(screen.queryByText("valid")).toBeNull();
    expect(section.querySelector(".history__listings")?.textContent).toBe(
      "Listed in 6 lists from November 1, 2005 to November 1, 2010, then, after a gap, in 7 lists from April 25, 2012 to August 27, 2014.",
    );
    expect(entries(section).map((text) => text.replace(/Source:.*/, ""))).toEqual([
      "No longer listed as of the list of July 7, 2015 (last listed in the list of August 27, 2014); " +
        "last listed as Capitol Hill Wine & Spirits, owned by CHWS LLC, class A (Class A: spirits, wine and beer " +
        "(a retailer's: off the premises, a liquor store; a wholesaler's: all three; a manufacturer's: a distillery or winery))",
      "Listed again in the list of April 25, 2012 (not in the list of October 1, 2011)",
      "No longer listed as of the list of October 1, 2011 (last listed in the list of November 1, 2010)",
      "First listed in the list of November 1, 2005",
    ]);
  });

  it("stays a bare not found when the service keeps no history of the number", async () => {
    reply = ourService(null, null);
    renderLicenseRoute("/license/dc/ABRA-099999");
    await historySection();
    expect(screen.getByRole("region", { name: "Verdict" }).textContent).toContain(
      "Not in our District of Columbia data, which covers every license ABRA lists as issued in the District, as of August 4, 2016.",
    );
  });
});

/** The selectors the stylesheet hides on paper (`display: none` inside `@media print`). */
function hiddenOnPaper(): string[] {
  const start = css.indexOf("{", css.indexOf("@media print"));
  let depth = 0;
  let end = start;
  do {
    if (css[end] === "{") depth++;
    if (css[end] === "}") depth--;
    end++;
  } while (depth > 0);
  return [...css.slice(start + 1, end - 1).matchAll(/([^{}]+)\{[^}]*display:\s*none/g)].flatMap((m) =>
    m[1]!.split(",").map((selector) => selector.trim()),
  );
}
