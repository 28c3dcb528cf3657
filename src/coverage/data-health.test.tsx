import { cleanup, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { FeedHealth, StateCoverage } from "../contract/envelopes.ts";
import { renderRoutes } from "../shared/render-routes.tsx";
import { DataPage } from "./data-page.tsx";
import "us-atlas/states-albers-10m.json";

// The service's clock is UTC; the page tells the reader's: New York's, at 10:00 on November 22, 2026.
const NOW = "2026-11-22T15:00:00Z";
const zone = process.env.TZ;

function state(code: string, name: string, loadedAt: string, health: Partial<StateCoverage> = {}): StateCoverage {
  return {
    state: code,
    name,
    records: 100,
    sources: [
      {
        id: code.charCodeAt(0) * 100 + code.charCodeAt(1),
        agency: `${name} agency`,
        title: "Licenses",
        coverage: "statewide",
        file: "list.csv",
        sha256: "0".repeat(64),
        as_of: "2026-11-01",
        as_of_from: "stated in the file",
        loaded_at: loadedAt,
        records: 100,
      },
    ],
    ...health,
  };
}

function feed(outcome: FeedHealth["outcome"], checked_at: string, changed_at: string | null, detail = ""): FeedHealth {
  return { feed: "x/licenses", url: "https://agency.example/licenses.csv", checked_at, outcome, detail, changed_at };
}

const REASON =
  "Liquor_Licenses.csv would stop serving 985 of the 1,966 licenses MI serves now (50%, more than the 10% an import may drop unasked).";
const refusal = (refused_at: string) => ({
  refused_at,
  file: "Liquor_Licenses.csv",
  sha256: "f".repeat(64),
  reason: REASON,
});

let answer: StateCoverage[];

beforeEach(() => {
  process.env.TZ = "America/New_York";
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(NOW));
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => Response.json({ data: answer })),
  );
});

afterEach(() => {
  process.env.TZ = zone;
});

const renderPage = () => renderRoutes([{ path: "/data", element: <DataPage /> }], "/data");
const updates = async (name: string) => {
  const table = await screen.findByRole("table");
  return within(table)
    .getByRole("rowheader", { name: `Search ${name}` })
    .closest("tr")!
    .querySelector(".data-health")!;
};
const notice = () => screen.queryByText(/Updates to look at/)?.closest("p") ?? null;

describe("the Data page's updates", () => {
  it("tells a fresh check in words: when it asked, that nothing was new, and when new data last came", async () => {
    answer = [
      state("ma", "Massachusetts", "2026-11-19 12:00:00.000000", {
        feeds: [feed("unchanged", "2026-11-22 13:00:00.000000", "2026-11-19 12:00:00.000000")],
        last_refusal: null,
      }),
      state("ky", "Kentucky", "2026-11-22 14:55:00.000000", {
        feeds: [feed("changed", "2026-11-22 14:55:00.000000", "2026-11-22 14:55:00.000000")],
        last_refusal: null,
      }),
    ];
    renderPage();
    expect((await updates("Massachusetts")).textContent).toBe(
      "Checked 2 hours ago: nothing new. Last new data 3 days ago.",
    );
    expect((await updates("Kentucky")).textContent).toBe("Checked 5 minutes ago: new data loaded.");
    expect(screen.getByRole("columnheader", { name: "Updates" })).toBeTruthy();
    expect(notice()).toBeNull();
  });

  it("makes a failed check stand out, with the check's own sentence, and says the records are served as before", async () => {
    answer = [
      state("ny", "New York", "2026-11-17 15:00:00.000000", {
        feeds: [
          feed(
            "failed",
            "2026-11-22 14:00:00.000000",
            "2026-11-17 15:00:00.000000",
            "data.ny.gov did not answer within 30 s.",
          ),
        ],
        last_refusal: null,
      }),
      state("dc", "District of Columbia", "2026-11-01 00:00:00.000000", {
        feeds: [feed("failed", "2026-11-22 14:00:00.000000", null, "The ArcGIS layer answered HTTP 500 three times.")],
        last_refusal: null,
      }),
    ];
    renderPage();
    const ny = await updates("New York");
    expect(ny.textContent).toBe(
      "⚠ Check failed 1 hour ago: data.ny.gov did not answer within 30 s. Last new data 5 days ago.",
    );
    // Named in words, in bold, in a box: not by colour alone.
    expect(within(ny as HTMLElement).getByText("Check failed").tagName).toBe("STRONG");
    expect((await updates("District of Columbia")).textContent).toContain("No check has brought new data yet.");
    expect(notice()!.textContent).toBe(
      "⚠ Updates to look at: District of Columbia, New York (see Updates below). Their records are still served as before.",
    );
  });

  it("says a sync's refused download once: the feed points to the refused file, which gives the sentence", async () => {
    answer = [
      state("nj", "New Jersey", "2026-11-20 09:00:00.000000", {
        feeds: [feed("refused", "2026-11-22 13:00:00.000000", null, REASON)],
        last_refusal: refusal("2026-11-22 13:00:00.000000"),
      }),
    ];
    renderPage();
    const nj = await updates("New Jersey");
    expect(nj.textContent.split(REASON)).toHaveLength(2);
    expect(nj.querySelector("li")!.textContent).toBe(
      "⚠ Download refused 2 hours ago: the file and why are below. No check has brought new data yet.",
    );
  });

  it("shows a refused file with its reason, when, and that the records from before it are still served", async () => {
    answer = [
      state("mi", "Michigan", "2026-11-20 09:00:00.000000", {
        feeds: [],
        last_refusal: refusal("2026-11-22 13:00:00.000000"),
      }),
      // Refused, then a file loaded since: the records the refusal kept are no longer the ones served.
      state("pa", "Pennsylvania", "2026-11-21 09:00:00.000000", {
        feeds: [],
        last_refusal: refusal("2026-11-20 09:00:00.000000"),
      }),
    ];
    renderPage();
    const mi = await updates("Michigan");
    expect([...mi.querySelectorAll("p")].map((p) => p.textContent)).toEqual([
      "Updated by hand: not checked automatically.",
      "⚠ Update refused 2 hours ago (November 22, 2026, 08:00 EST): Liquor_Licenses.csv. The records from before it are still served.",
      REASON,
    ]);
    const pa = await updates("Pennsylvania");
    expect(pa.textContent).not.toMatch(/still served/);
    expect(pa.querySelector("summary")!.textContent).toBe(
      "A file was refused 2 days ago (November 20, 2026, 04:00 EST); data has been loaded since",
    );
    expect(notice()!.textContent).toMatch(/^⚠ Updates to look at: Michigan \(/);
  });

  it("says nothing of checks where the service does not send them", async () => {
    answer = [
      state("ma", "Massachusetts", "2026-11-19 12:00:00.000000"),
      state("ky", "Kentucky", "2026-11-19 12:00:00.000000"),
    ];
    renderPage();
    await screen.findByRole("table");
    expect(screen.queryByRole("columnheader", { name: "Updates" })).toBeNull();
    expect(screen.queryByText(/checked|by hand|refused/i)).toBeNull();

    // One state told of, one not: the other's cell claims nothing.
    cleanup();
    answer = [
      state("ma", "Massachusetts", "2026-11-19 12:00:00.000000", { feeds: [], last_refusal: null }),
      state("ky", "Kentucky", "2026-11-19 12:00:00.000000"),
    ];
    renderPage();
    expect((await updates("Kentucky")).textContent).toBe("Not given");
    expect((await updates("Massachusetts")).textContent).toBe("Updated by hand: not checked automatically.");
  });
});
