import { QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { STATE_UNAVAILABLE_PROBLEM } from "../api/api-error.ts";
import { SearchPage } from "../search/search-page.tsx";
import { createQueryClient } from "./query-client.ts";

// The app’s own client and search page, with the service’s answers played in order. The license page’s
// retry after a fault is e2e/service-faults.spec.ts's, in Chromium.
let answers: (() => Response)[];
let calls: string[];

const problem = (status: number, headers: Record<string, string> = {}, type = "about:blank") =>
  Response.json(
    { type, title: "x", status, detail: `HTTP ${status} from the service` },
    {
      status,
      headers: { "content-type": "application/problem+json", ...headers },
    },
  );
// Our service: each search asked in one request, with where its licenses come from.
const found = () => Response.json({ data: { licenses: [], provenance: [] } });

beforeEach(() => {
  calls = [];
  // Only the timers the retries run on are faked (Testing Library's find* would wait on them forever, so it is not used).
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string) => {
      if (path === "/v2/states") return Response.json({ data: [] });
      calls.push(path);
      return (answers.shift() ?? found)();
    }),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function renderAt(url: string) {
  const client = createQueryClient();
  const router = createMemoryRouter([{ path: "/", Component: SearchPage }], { initialEntries: [url] });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

/**
 * Moves the fake clock, then lets fetches and renders finish: real macrotasks, and the zero-delay timers
 * TanStack Query batches on (a zero delay set while the fake clock ticks counts as 1 ms). Adds 10 ms in all.
 */
async function wait(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
  for (let i = 0; i < 10; i++) {
    await act(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(1);
    });
  }
}

describe("a 429", () => {
  it("says how long to wait, then searches again by itself once that time has passed", async () => {
    answers = [() => problem(429, { "retry-after": "7" })];
    renderAt("/?state=ny&by=name&q=tavern");
    await wait(0);
    screen.getByText("Wait 7 seconds: the page tries again by itself then.");
    await wait(6_900);
    expect(calls).toHaveLength(1);
    await wait(100);
    expect(calls).toHaveLength(2);
    await wait(0);
    screen.getByText("No licenses found.");
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("keeps waiting as long as the service keeps asking", async () => {
    answers = [() => problem(429, { "retry-after": "2" }), () => problem(429, { "retry-after": "3" })];
    renderAt("/?state=ny&by=name&q=tavern");
    await wait(0);
    screen.getByText("Wait 2 seconds: the page tries again by itself then.");
    await wait(2_000);
    screen.getByText("Wait 3 seconds: the page tries again by itself then.");
    await wait(2_900);
    expect(calls).toHaveLength(2);
    await wait(100);
    expect(calls).toHaveLength(3);
    screen.getByText("No licenses found.");
  });
});

describe("other failures", () => {
  it.each([400, 401, 404])("does not retry a %i", async (status) => {
    // Our service's 404 for a search: the state is not one it serves (any other would say the route is missing).
    answers = [() => problem(status, {}, status === 404 ? STATE_UNAVAILABLE_PROBLEM : "about:blank")];
    renderAt("/?state=ny&by=name&q=tavern");
    await wait(0);
    screen.getByRole("alert");
    await wait(120_000);
    expect(calls).toHaveLength(1);
  });

  it("retries a 502 twice on its own, then offers a retry button that works", async () => {
    answers = [() => problem(502), () => problem(502), () => problem(502)];
    renderAt("/?state=ny&by=name&q=tavern");
    await wait(3_000);
    expect(calls).toHaveLength(3);
    await wait(0);
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    await wait(0);
    screen.getByText("No licenses found.");
    expect(calls).toHaveLength(4);
  });

  it("offers the retry button at once for a 504: the server has already waited its limit", async () => {
    answers = [() => problem(504)];
    renderAt("/?state=ny&by=name&q=tavern");
    await wait(0);
    screen.getByRole("button", { name: "Try again" });
    await wait(60_000);
    expect(calls).toHaveLength(1);
  });

  it("offers the retry button when the connection fails", async () => {
    answers = [
      ...Array(3).fill(() => {
        throw new TypeError("Failed to fetch");
      }),
    ];
    renderAt("/?state=ny&by=name&q=tavern");
    await wait(3_000);
    await wait(0);
    screen.getByText("The license service could not be reached");
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    await wait(0);
    screen.getByText("No licenses found.");
  });
});
