import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { Suspense } from "react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { vi } from "vitest";
import { LicenseRoute } from "./license-route.tsx";

/** For tests: the license route at `url`, with a search page to leave to, over a fresh query client that never retries. */
export function renderLicenseRoute(url: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: "/", element: <h1>Search</h1> },
      {
        path: "/license/:state/:license",
        element: (
          <Suspense fallback={null}>
            <LicenseRoute />
          </Suspense>
        ),
      },
    ],
    { initialEntries: [url] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

/** For tests: `fetch` answered by `reply`, each path asked recorded in the returned list, in order. */
export function stubFetch(reply: (path: string, init: RequestInit) => Response | Promise<Response>): string[] {
  const requested: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string, init: RequestInit = {}) => {
      requested.push(path);
      return reply(path, init);
    }),
  );
  return requested;
}
