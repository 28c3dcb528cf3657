import type { QueryClient } from "@tanstack/react-query";
import { createBrowserRouter } from "react-router";
import { Layout } from "./layout.tsx";
import { NotFoundPage } from "./not-found-page.tsx";
import { PageLoading } from "./page-loading.tsx";
import { RootError } from "./root-error.tsx";

export function createRouter(queryClient: QueryClient) {
  return createBrowserRouter([
    {
      Component: Layout,
      HydrateFallback: PageLoading,
      children: [
        {
          // Inside the layout, so an error page keeps the header and its way home.
          ErrorBoundary: RootError,
          children: [
            { index: true, lazy: () => import("../search/search-page.tsx") },
            {
              path: "license/:state/:license",
              HydrateFallback: PageLoading,
              lazy: async () => (await import("../license/license-route.tsx")).licenseRoute(queryClient),
            },
            { path: "*", Component: NotFoundPage },
          ],
        },
      ],
    },
  ]);
}
