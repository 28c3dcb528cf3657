import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Provenance } from "../contract/envelopes.ts";
import type { License } from "../contract/license.ts";
import type { WatchChange, WatchCheck, WatchEntry, Watchlist } from "../contract/watchlist.ts";
import { WatchlistPage } from "./watchlist-page.tsx";
import { renderRoutes } from "../shared/render-routes.tsx";

// The clerk's clock: 10:00 on November 22, 2026, where they are.
const NOW = new Date("2026-11-22T10:00:00");
/** `days` after today, as the record writes a date. */
const inDays = (days: number) => new Date(Date.UTC(2026, 10, 22 + days)).toISOString().slice(0, 10);
/** A local time today, as the server writes an instant. */
const at = (hours: number, minutes: number) => new Date(2026, 10, 22, hours, minutes).toISOString();

function record(license: string, business: string, expires: string | null, extra: Partial<License> = {}): License {
  return {
    object: "license",
    license,
    business,
    owner: `${business} LLC`,
    phone: null,
    state: "ny",
    status: "active",
    updated_at: "2026-11-01 00:00:00.000000",
    address: { line_1: "1 Main St", line_2: null, city: "Albany", county: "Albany", state: "NY", zip: "12207" },
    dates: { ny: { effective: null, expires, issued_original: null, issued_latest: null } },
    details: { class: null, description: null, type: "OP" },
    ...extra,
  };
}

const PROVENANCE = (license: string): Provenance => ({
  state: "ny",
  license,
  as_of: "2026-11-01",
  source: {
    id: 1,
    agency: "New York State Liquor Authority",
    title: "Active licenses",
    coverage: "New York",
    file: null,
    sha256: null,
    as_of: "2026-11-01",
    as_of_from: "stated in the file",
    loaded_at: "2026-11-02 00:00:00.000000",
    records: 100,
  },
});

function entry(license: string, business: string, expires: string | null, extra: Partial<WatchEntry> = {}): WatchEntry {
  return {
    state: "ny",
    license,
    added_at: at(9, 0),
    checked_at: at(9, 30),
    outcome: "found",
    record: record(license, business, expires),
    provenance: PROVENANCE(license),
    unseen: 0,
    ...extra,
  };
}

const FINISHED: WatchCheck = {
  id: 1,
  trigger: "schedule",
  started_at: at(9, 29),
  finished_at: at(9, 30),
  checked: 5,
  total: 5,
  changes: 0,
  error: null,
};

function watchlistOf(entries: WatchEntry[], extra: Partial<Watchlist> = {}): Watchlist {
  return {
    entries,
    changes: [],
    looked_at: null,
    check: FINISHED,
    next_check_at: at(22, 0),
    alerts: { webhook: false, email: false, undelivered: [] },
    max: 10_000,
    ...extra,
  };
}

interface Request {
  method: string;
  path: string;
  body: unknown;
}

let requests: Request[];
/** The app server: its answer to each request, by method and path. */
let answer: (request: Request) => Response;

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ["Date"] });
  requests = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string, init: RequestInit = {}) => {
      const request = {
        method: init.method ?? "GET",
        path,
        body: typeof init.body === "string" ? JSON.parse(init.body) : undefined,
      };
      requests.push(request);
      return answer(request);
    }),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** A server whose list is `watchlist`, changed by `write` for each request that is not a GET. */
function serveList(
  watchlist: Watchlist,
  write: (request: Request) => Response = () => new Response(null, { status: 204 }),
) {
  let list = watchlist;
  answer = (request) => {
    if (request.method === "GET" && request.path === "/api/watchlist") return Response.json({ data: list });
    if (request.method === "GET" && request.path === "/api/watchlist/check") return Response.json({ data: list.check });
    const response = write(request);
    if (request.path === "/api/watchlist/seen") list = { ...list, changes: [], looked_at: at(10, 5) };
    if (request.method === "DELETE") {
      list = { ...list, entries: list.entries.filter((e) => request.path !== `/api/watchlist/ny/${e.license}`) };
    }
    return response;
  };
}

function renderPage(url = "/watchlist") {
  return renderRoutes(
    [
      { path: "/watchlist", Component: WatchlistPage },
      { path: "/license/:state/:license", element: <h1>License</h1> },
    ],
    url,
  );
}

/** The table's rows as a clerk reads them: number, then verdict. */
async function tableRows(): Promise<string[][]> {
  const table = await screen.findByRole("table");
  return within(table)
    .getAllByRole("row")
    .slice(1)
    .map((row) => {
      const cells = within(row).getAllByRole("cell");
      return [cells[1]!.textContent, cells[3]!.querySelector(".verdict")?.textContent ?? ""];
    });
}

describe("the expiring filters", () => {
  const entries = [
    entry("0000200", "FAR OFF BAR", inDays(200)),
    entry("0000045", "FORTY-FIVE BAR", inDays(45)),
    // Lapsed before the data of November 1, 2026: the data itself lists it expired.
    entry("0000000", "LAPSED BAR", inDays(-30)),
    entry("0000080", "EIGHTY BAR", inDays(80)),
    entry("0000010", "TEN DAY BAR", inDays(10)),
  ];

  it("show those expiring from today to 30, 60 or 90 days out, never one already expired, and keep the choice in the URL", async () => {
    serveList(watchlistOf(entries));
    const router = renderPage();
    // Soonest expiry first, the expired one at the top.
    expect(await tableRows()).toEqual([
      ["0000000", "expired"],
      ["0000010", "valid"],
      ["0000045", "valid"],
      ["0000080", "valid"],
      ["0000200", "valid"],
    ]);
    screen.getByRole("radio", { name: "All (5)" });

    await userEvent.click(screen.getByRole("radio", { name: "Expiring within 30 days (1)" }));
    expect(router.state.location.search).toBe("?expiring=30");
    expect(await tableRows()).toEqual([["0000010", "valid"]]);
    screen.getByRole("button", { name: "Download CSV (1)" });

    await userEvent.click(screen.getByRole("radio", { name: "Expiring within 60 days (2)" }));
    expect((await tableRows()).map(([number]) => number)).toEqual(["0000010", "0000045"]);

    await userEvent.click(screen.getByRole("radio", { name: "Expiring within 90 days (3)" }));
    expect((await tableRows()).map(([number]) => number)).toEqual(["0000010", "0000045", "0000080"]);
    screen.getByRole("button", { name: "Download CSV (3)" });

    await userEvent.click(screen.getByRole("radio", { name: "All (5)" }));
    expect(router.state.location.search).toBe("");
    expect(await tableRows()).toHaveLength(5);
  });

  it("open from a link with the filter already chosen, and export just what it shows, as the list check's CSV", async () => {
    serveList(watchlistOf(entries));
    renderPage("/watchlist?expiring=60");
    expect((await tableRows()).map(([number]) => number)).toEqual(["0000010", "0000045"]);
    expect(screen.getByRole("radio", { name: "Expiring within 60 days (2)" })).toHaveProperty("checked", true);

    const blobs: Blob[] = [];
    const names: string[] = [];
    vi.stubGlobal(
      "URL",
      class extends URL {
        static override createObjectURL = (blob: Blob) => `blob:${blobs.push(blob)}`;
        static override revokeObjectURL = () => {};
      },
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    await userEvent.click(screen.getByRole("button", { name: "Download CSV (2)" }));
    await vi.waitFor(() => expect(names).toEqual(["watchlist-2026-11-22.csv"]));
    click.mockRestore();
    // jsdom's Blob has no text(); its FileReader reads it, without the byte-order mark the file starts with.
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as string);
      reader.readAsText(blobs[0]!);
    });
    const lines = text.split("\r\n");
    expect(lines[0]).toBe(
      "row,state,license,matched_license,verdict,reason,status,business,owner,expires,source,as_of,checked_at,link",
    );
    expect(lines.slice(1)).toEqual([
      `1,NY,0000010,0000010,valid,"In force (on the SLA's list of active licenses); expires December 2, 2026.",active,TEN DAY BAR,TEN DAY BAR LLC,2026-12-02,New York State Liquor Authority,2026-11-01,${at(9, 30)},http://localhost:3000/license/ny/0000010`,
      `2,NY,0000045,0000045,valid,"In force (on the SLA's list of active licenses); expires January 6, 2027.",active,FORTY-FIVE BAR,FORTY-FIVE BAR LLC,2027-01-06,New York State Liquor Authority,2026-11-01,${at(9, 30)},http://localhost:3000/license/ny/0000045`,
      "",
    ]);
  });
});

describe("the changes since someone last looked", () => {
  const change = (id: number, license: string, field: WatchChange["field"], from: string | null, to: string | null) =>
    ({
      id,
      state: "ny",
      license,
      field,
      from,
      to,
      detected_at: at(10, 4),
      link: `https://app.test/license/ny/${license}`,
      seen: false,
    }) satisfies WatchChange;

  it("says each change in words, linked to the license, until Mark all as seen empties the list", async () => {
    const gone = entry("7654321", "OLD MILL INN", "2026-03-31", {
      outcome: "no longer listed",
      record: record("7654321", "OLD MILL INN", "2026-03-31", { status: "active" }),
      unseen: 1,
    });
    serveList(
      watchlistOf(
        [entry("1234567", "ACME TAVERN", "2028-03-31", { unseen: 3 }), gone, entry("1111111", "QUIET BAR", null)],
        {
          looked_at: at(8, 0),
          changes: [
            change(4, "7654321", "listing", "listed", "no longer listed"),
            change(3, "1234567", "expires", "2026-03-31", "2028-03-31"),
            change(2, "1234567", "status", "active", "cancelled"),
            change(1, "1234567", "owner", "ACME LLC", "ACME HOLDINGS INC"),
          ],
        },
      ),
    );
    renderPage();
    const section = await screen.findByRole("region", { name: "Changed since you last looked" });
    const items = within(section).getAllByRole("listitem");
    expect(items.map((li) => li.textContent)).toEqual([
      "NY 7654321 · OLD MILL INN — No longer listed: the service no longer returns this license (last seen as OLD MILL INN, status active, expiring March 31, 2026) · found November 22, 2026, 10:04 UTC",
      "NY 1234567 · ACME TAVERN — Expiry moved from March 31, 2026 to March 31, 2028 · found November 22, 2026, 10:04 UTC",
      "NY 1234567 · ACME TAVERN — Status changed from active to cancelled · found November 22, 2026, 10:04 UTC",
      "NY 1234567 · ACME TAVERN — Owner changed from ACME LLC to ACME HOLDINGS INC · found November 22, 2026, 10:04 UTC",
    ]);
    expect(within(items[1]!).getByRole("link").getAttribute("href")).toBe("/license/ny/1234567");

    // In the table: the changed ones first and marked (the soonest expiry first), the one no longer listed as not found, with why.
    const rows = within(await screen.findByRole("table"))
      .getAllByRole("row")
      .slice(1);
    expect(rows.map((row) => within(row).getAllByRole("cell")[6]!.textContent)).toEqual(["1 change", "3 changes", ""]);
    expect(rows[0]!.textContent).toContain(
      "not foundNo longer listed: the service no longer returns this license (last seen as OLD MILL INN, status active, expiring March 31, 2026).",
    );

    await userEvent.click(within(section).getByRole("button", { name: "Mark all as seen" }));
    await within(section).findByText("No changes since you last looked (November 22, 2026, 10:05 UTC).");
    expect(within(section).queryAllByRole("listitem")).toEqual([]);
    expect(requests.filter((r) => r.method !== "GET")).toEqual([
      // Up to the newest change shown: one a check finds meanwhile stays unseen.
      // The clerk's zone with it: the changes seen are recorded as checks.
      {
        method: "POST",
        path: "/api/watchlist/seen",
        body: { up_to: 4, zone: Intl.DateTimeFormat().resolvedOptions().timeZone },
      },
    ]);
  });
});

describe("an auditor", () => {
  it("reads the watchlist and its changes, and is offered nothing that changes it", async () => {
    const change: WatchChange = {
      id: 1,
      state: "ny",
      license: "1234567",
      field: "status",
      from: "active",
      to: "cancelled",
      detected_at: at(10, 4),
      link: "https://app.test/license/ny/1234567",
      seen: false,
    };
    serveList(watchlistOf([entry("1234567", "ACME TAVERN", "2028-03-31", { unseen: 1 })], { changes: [change] }));
    const list = answer;
    answer = (request) => {
      if (request.path !== "/api/session") return list(request);
      const user = { id: 2, email: "audit@example.com", name: null, role: "auditor" };
      return Response.json({ data: { user, development: false, expires_at: "2026-11-23T00:00:00.000Z" } });
    };
    renderPage();
    await screen.findByText("Auditors can read the watchlist but not change it.");
    expect(await tableRows()).toEqual([["1234567", "valid"]]);
    expect(screen.getByRole("region", { name: "Changed since you last looked" }).textContent).toContain(
      "Status changed from active to cancelled",
    );
    for (const name of [/Watch/, /Add/, /Check now/, /Mark all as seen/, /Remove/]) {
      expect(screen.queryByRole("button", { name }), String(name)).toBeNull();
    }
    expect(screen.queryByRole("textbox")).toBeNull();
  });
});

describe("adding a list", () => {
  it("sends only the rows it can, and lists the rows not added, the list's own problems and the server's alike", async () => {
    serveList(watchlistOf([]), (request) =>
      Response.json({
        data: {
          rows: [
            { row: 1, state: "NY", license: "1234567", outcome: "added", error: null },
            {
              row: 4,
              state: "New York",
              license: "99999",
              outcome: "error",
              error: "No New York license 99999 in our data.",
            },
            { row: 5, state: "ny", license: "7654321", outcome: "already watched", error: null },
          ].filter((r) => (request.body as { rows: { row: number }[] }).rows.some((sent) => sent.row === r.row)),
          added: 1,
          watched: 2,
        },
      }),
    );
    renderPage();
    await userEvent.click(await screen.findByRole("textbox", { name: "Licenses to watch" }));
    await userEvent.paste("NY,1234567\nXX,1\nNY,,Some Bar\nNew York,99999\nny,7654321");
    await userEvent.click(screen.getByRole("button", { name: "Add to the watchlist" }));

    const report = await screen.findByText("Added 1; 1 was already watched. 3 rows were not added:");
    expect(
      within(report.parentElement!)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual([
      "Row 2: unknown state “XX”: write a code such as NY or a name such as New York",
      "Row 3: a license number is needed to watch a license",
      "Row 4: No New York license 99999 in our data.",
    ]);
    expect(requests.filter((r) => r.method === "POST")).toEqual([
      {
        method: "POST",
        path: "/api/watchlist",
        body: {
          rows: [
            { row: 1, state: "NY", license: "1234567" },
            { row: 4, state: "New York", license: "99999" },
            { row: 5, state: "ny", license: "7654321" },
          ],
        },
      },
    ]);
  });
});

describe("checks", () => {
  it("runs one on Check now, shows its progress without a reload, then what it found", async () => {
    const entries = [entry("1234567", "ACME TAVERN", inDays(100))];
    const running: WatchCheck = { ...FINISHED, id: 2, trigger: "check now", finished_at: null, checked: 2, total: 5 };
    let asked = 0;
    let check: WatchCheck = FINISHED;
    answer = (request) => {
      if (request.method === "POST") {
        check = running;
        return Response.json({ data: running }, { status: 202 });
      }
      // Followed while it runs: done by the second time it is asked.
      if (request.path === "/api/watchlist/check") {
        if (check === running && ++asked > 1) check = { ...running, finished_at: at(10, 1), checked: 5, changes: 1 };
        return Response.json({ data: check });
      }
      return Response.json({
        data: watchlistOf(entries, {
          check,
          alerts: {
            webhook: true,
            email: false,
            undelivered: [
              {
                kind: "webhook",
                subject: "3 changes",
                created_at: at(9, 30),
                attempts: 4,
                last_error: "HTTP 503 from https://hooks.test/watch",
                next_attempt_at: at(10, 30),
              },
            ],
          },
        }),
      });
    };
    renderPage();
    await screen.findByText(
      "Last check: November 22, 2026, 09:30 UTC (scheduled): 5 of 5 licenses checked; 0 changes found.",
    );
    screen.getByText("1 license watched, of at most 10,000.");
    screen.getByText("Next scheduled check: November 22, 2026, 22:00 UTC.");
    screen.getByText("Changes are also sent by webhook.");
    expect(screen.getByText("An alert did not go out").parentElement!.textContent).toContain(
      "Webhook “3 changes” of November 22, 2026, 09:30 UTC: 4 attempts, last error: HTTP 503 from https://hooks.test/watch; tried again November 22, 2026, 10:30 UTC.",
    );

    await userEvent.click(screen.getByRole("button", { name: "Check now" }));
    const button = await screen.findByRole("button", { name: "Checking… 2 of 5" });
    expect(button.getAttribute("aria-disabled")).toBe("true");
    screen.getByText("Checking 5 licenses, since November 22, 2026, 09:29 UTC…");
    await screen.findByText(
      "Last check: November 22, 2026, 10:01 UTC (asked for with Check now): 5 of 5 licenses checked; 1 change found.",
      {},
      { timeout: 3000 },
    );
    screen.getByRole("button", { name: "Check now" });
    // The whole list is asked on opening, after Check now and once the check ended; its progress came from /check.
    expect(requests.filter((r) => r.path === "/api/watchlist")).toHaveLength(3);
    expect(requests.filter((r) => r.path === "/api/watchlist/check").length).toBeGreaterThanOrEqual(2);
  });
});

describe("a license removed", () => {
  it("leaves the table, and the page says so", async () => {
    serveList(watchlistOf([entry("1234567", "ACME TAVERN", inDays(100)), entry("7654321", "OLD MILL", inDays(5))]));
    renderPage();
    await userEvent.click(await screen.findByRole("button", { name: "Remove NY 1234567" }));
    await screen.findByText("NY 1234567 is no longer watched.");
    expect(await tableRows()).toEqual([["7654321", "valid"]]);
    expect(requests.filter((r) => r.method === "DELETE").map((r) => r.path)).toEqual(["/api/watchlist/ny/1234567"]);
  });
});

describe("an app served without a watchlist", () => {
  it("says so instead of failing", async () => {
    answer = () => new Response("Not found", { status: 404 });
    renderPage();
    await screen.findByText(/^This deployment of License Lookup keeps no watchlist\./);
    expect(screen.queryByRole("alert")).toBeNull();
    expect(document.title).toBe("Watchlist – License Lookup");
  });
});
