import { QueryErrorResetBoundary, useSuspenseQuery } from "@tanstack/react-query";
import { startTransition, type ReactNode } from "react";
import { ErrorBoundary } from "react-error-boundary";
import { ApiError } from "../api/api-error.ts";
import { licenseQueries } from "../api/license-queries.ts";
import type { LicenseHistory } from "../contract/envelopes.ts";

/** A license's history as fetched: null when the service keeps none; or the failure to fetch it. */
export type HistoryAnswer = { history: LicenseHistory | null } | { error: ApiError; retry: () => void };

interface Props {
  state: string;
  license: string;
  /** What shows the history; it must not suspend on queries of its own (their failures would land here). */
  children: (answer: HistoryAnswer) => ReactNode;
}

/**
 * The page waits for the history (with no Suspense boundary of its own, it suspends the page, which
 * shows whole, never with a late section), but a failure to fetch it is the history's alone: the
 * record still shows, and `children` say the history could not be fetched.
 */
export function WithHistory({ state, license, children }: Props) {
  return (
    <QueryErrorResetBoundary>
      {({ reset }) => (
        <ErrorBoundary
          onReset={reset}
          resetKeys={[state, license]}
          fallbackRender={({ error, resetErrorBoundary }) => {
            if (!(error instanceof ApiError)) throw error;
            // As a transition, a retry keeps the page on screen while the history is fetched again.
            return children({ error, retry: () => startTransition(resetErrorBoundary) });
          }}
        >
          <Fetched state={state} license={license}>
            {children}
          </Fetched>
        </ErrorBoundary>
      )}
    </QueryErrorResetBoundary>
  );
}

function Fetched({ state, license, children }: Props) {
  const { data } = useSuspenseQuery(licenseQueries.history(state, license));
  return children({ history: data });
}
