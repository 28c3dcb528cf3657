import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "./app/browser-router.tsx";
import { createQueryClient } from "./app/query-client.ts";
import { AppRoutes } from "./app/router.tsx";
import { sessionQuery } from "./api/session-query.ts";
import "./index.css";

const queryClient = createQueryClient();
// Who is signed in is asked before the first page's code arrives: the header and the role's controls draw with it.
void queryClient.prefetchQuery(sessionQuery());

const root = createRoot(document.getElementById("root")!);
// As a transition, React draws the first page in slices of a few milliseconds rather than one long task, so
// the main thread answers in between (index.html's frame stays on screen until the page is ready to replace it).
startTransition(() =>
  root.render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </QueryClientProvider>
    </StrictMode>,
  ),
);
