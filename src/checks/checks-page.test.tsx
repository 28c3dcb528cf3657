import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ChainState, LogEntry } from "../contract/checks.ts";
import { stubFetch } from "../license/render-license-route.tsx";
import { renderRoutes } from "../shared/render-routes.tsx";
import { ChecksPage } from "./checks-page.tsx";

function entry(id: number, more: Partial<LogEntry> = {}): LogEntry {
  return {
    id,
    at: "2027-03-03T15:02:00.000Z",
    zone: "America/New_York",
    action: "license page",
    user_email: "maria@example.com",
    user_name: "Maria Lopez",
    user_role: "member",
    state: "ny",
    license: "1268007",
    verdict: "expired",
    reason: "Expired.",
    record_json: null,
    record_sha256: null,
    provenance_json: null,
    source_sha256: null,
    as_of: null,
    detail: null,
    given_json: null,
    app_version: "1.4.0",
    prev_hash: "0".repeat(64),
    hash: "3fa".padEnd(64, "0"),
    ...more,
  };
}

const INTACT: ChainState = {
  ok: true,
  entries: 1234,
  head: "3fa".padEnd(64, "0"),
  broken_at: null,
  problem: null,
  checked_at: "2027-03-03T15:05:00.000Z",
};

/** An auditor's app server (or a member's): the log answers two pages of one entry each, whatever the filter. */
function serve(chain: ChainState = INTACT, role = "auditor", entries = (older: boolean) => [entry(older ? 5 : 9)]) {
  return stubFetch((path) => {
    if (path === "/api/session") {
      const user = { id: 1, email: "audit@example.com", name: null, role };
      return Response.json({ data: { user, development: false, expires_at: "2027-03-04T00:00:00.000Z" } });
    }
    if (path === "/api/checks/chain") return Response.json({ data: chain });
    const older = path.includes("before=");
    return Response.json({
      data: { entries: entries(older), next_before: older ? null : 9, total: 2 },
    });
  });
}

const page = (url: string) => renderRoutes([{ path: "/checks", element: <ChecksPage /> }], url);

afterEach(() => vi.unstubAllGlobals());

describe("the Checks page", () => {
  it("keeps its filters in the address, asks the log with them, and downloads the CSV with the same", async () => {
    const requested = serve();
    const router = page("/checks");
    await screen.findByRole("link", { name: "Receipt of entry 9" });

    await userEvent.type(screen.getByLabelText("Person’s email"), "maria@example.com");
    await userEvent.selectOptions(screen.getByLabelText("State"), "ny");
    await userEvent.type(screen.getByLabelText("License number"), "1268007");
    await userEvent.selectOptions(screen.getByLabelText("Verdict"), "expired");
    await userEvent.type(screen.getByLabelText("From"), "2027-03-01");
    await userEvent.click(screen.getByRole("button", { name: "Filter" }));

    const query = "user=maria%40example.com&state=ny&license=1268007&verdict=expired&from=2027-03-01";
    expect(router.state.location.search).toBe(`?${query}`);
    await vi.waitFor(() => expect(requested).toContain(`/api/checks?${query}`));
    expect(screen.getByRole("link", { name: "Download CSV" }).getAttribute("href")).toBe(`/api/checks.csv?${query}`);
    expect(screen.getByRole("link", { name: "Receipt of entry 9" }).getAttribute("href")).toBe("/checks/9");

    // Older entries: the same filters, before the last entry shown; the CSV still takes every page.
    await userEvent.click(screen.getByRole("link", { name: "Older" }));
    await screen.findByRole("link", { name: "Receipt of entry 5" });
    expect(router.state.location.search).toBe(`?${query}&before=9`);
    expect(requested).toContain(`/api/checks?${query}&before=9`);
    expect(screen.getByRole("link", { name: "Download CSV" }).getAttribute("href")).toBe(`/api/checks.csv?${query}`);
    expect(screen.queryByRole("link", { name: "Older" })).toBeNull();
  });

  it("opens with the filters a pasted address carries", async () => {
    const requested = serve();
    page("/checks?verdict=not+found&state=nj");
    await screen.findByRole("link", { name: "Receipt of entry 9" });
    expect(requested).toContain("/api/checks?state=nj&verdict=not+found");
    expect(screen.getByLabelText<HTMLSelectElement>("Verdict").value).toBe("not found");
    expect(screen.getByLabelText<HTMLSelectElement>("State").value).toBe("nj");
  });

  it("says the record is intact with its newest hash, or names the first broken entry", async () => {
    serve();
    page("/checks");
    expect((await screen.findByText(/^The record is intact/)).textContent).toMatch(
      /^The record is intact: 1,234 entries; newest hash 3fa000000000…/,
    );
    expect((await screen.findByText(/^2 entries\./)).textContent).toMatch(/^2 entries\. Download CSV$/);
  });

  it("tells a member that the record's count is everyone's and the list's is theirs, so the two never disagree", async () => {
    serve(INTACT, "member");
    page("/checks");
    expect((await screen.findByText(/^The record is intact/)).textContent).toMatch(
      /^The record is intact: 1,234 entries in all, everyone’s; newest hash/,
    );
    await screen.findByText(/^2 entries are yours\./);
  });

  it("shows each check's reason, and a Verify row's line and what the clerk gave", async () => {
    const given = { line: 11, state: "NJ", license: "0707-33-003-007", business: "White Horse", address: "" };
    const reason = "Number belongs to TAVERN 292, not White Horse. Its record: valid.";
    serve(INTACT, "auditor", () => [
      entry(9, {
        action: "verify",
        state: "nj",
        license: "0707-33-003-007",
        verdict: "check",
        reason,
        given_json: JSON.stringify(given),
      }),
    ]);
    page("/checks");
    const row = (await screen.findByRole("link", { name: "Receipt of entry 9" })).closest("tr")!;
    const cells = within(row)
      .getAllByRole("cell")
      .map((td) => td.textContent);
    expect(cells[3]).toBe("Checked in a Verify listLine 11: NJ, 0707-33-003-007, White Horse");
    expect(cells[5]).toBe(`check${reason}`);
  });

  it("raises the alarm, naming the entry, when the chain is broken", async () => {
    serve({ ...INTACT, ok: false, broken_at: 57, problem: "Its hash does not match its content." });
    page("/checks");
    const alarm = await screen.findByRole("alert");
    expect(within(alarm).getByText("The record has been altered: entry 57 breaks the chain.")).toBeTruthy();
    expect(alarm.textContent).toContain("Its hash does not match its content.");
  });
});
