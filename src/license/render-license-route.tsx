import { Suspense } from "react";
import { vi } from "vitest";
import { renderRoutes } from "../shared/render-routes.tsx";
import { LicenseRoute } from "./license-route.tsx";

/** For tests: the license route at `url`, with a search page to leave to, over a fresh query client that never retries. */
export function renderLicenseRoute(url: string) {
  return renderRoutes(
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
    url,
  );
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

/** For tests: each label of the page's facts and the text beside it; a value shown under the wrong label fails. */
export function facts(): Record<string, string> {
  return Object.fromEntries(
    [...document.querySelectorAll(".facts__row")].map((row): [string, string] => [
      row.querySelector("dt")?.textContent ?? "",
      row.querySelector("dd")?.textContent ?? "",
    ]),
  );
}
