import { useSuspenseQuery, type QueryClient } from "@tanstack/react-query";
import { useRef } from "react";
import { data, Link, redirect, useParams, useRevalidator, useRouteError, type LoaderFunctionArgs } from "react-router";
import { ApiError } from "../api/api-error.ts";
import { ApiErrorNotice } from "../shared/api-error-notice.tsx";
import { licenseQueries } from "../api/license-queries.ts";
import { isStateCode, stateName } from "../contract/states.ts";
import { LicenseDetail } from "./license-detail.tsx";
import { LicenseNotFound } from "./license-not-found.tsx";
import { useArrivalFocus } from "../shared/use-arrival-focus.ts";

/** The `/license/:state/:license` route; its loader fetches through the query cache so the page renders complete. */
export function licenseRoute(queryClient: QueryClient) {
  return {
    loader: async ({ params, request }: LoaderFunctionArgs) => {
      const { state = "", license = "" } = params;
      const code = state.toLowerCase();
      if (!isStateCode(code)) throw data(`No state “${state}”`, { status: 404 });
      if (code !== state) throw redirect(`/license/${code}/${encodeURIComponent(license)}`);
      const options = licenseQueries.detail(code, license);
      request.signal.addEventListener("abort", () => void queryClient.cancelQueries({ queryKey: options.queryKey }));
      await queryClient.ensureQueryData(options);
      return null;
    },
    Component: LicensePage,
    ErrorBoundary: LicenseError,
  };
}

function useLicenseParams() {
  const { state = "", license = "" } = useParams();
  return { state, license, stateLabel: stateName(state) ?? state.toUpperCase() };
}

function LicensePage() {
  const { state, license } = useLicenseParams();
  const { data: found, dataUpdatedAt } = useSuspenseQuery(licenseQueries.detail(state, license));
  return found ? (
    <LicenseDetail license={found} retrievedAt={new Date(dataUpdatedAt)} />
  ) : (
    <LicenseNotFound state={state} license={license} />
  );
}

/** Only the service's failures are this route's to explain; anything else goes up to the app's error page. */
function LicenseError() {
  const error = useRouteError();
  const { state, license, stateLabel } = useLicenseParams();
  const revalidator = useRevalidator();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useArrivalFocus(headingRef);
  if (!(error instanceof ApiError)) throw error;

  return (
    <div className="license-error">
      <title>{`License ${license} in ${stateLabel} – License Lookup`}</title>
      <p className="eyebrow">{stateLabel} liquor license</p>
      <h1 ref={headingRef} tabIndex={-1}>
        License <span className="mono given">{license}</span>
      </h1>
      <ApiErrorNotice error={error} stateLabel={stateLabel} onRetry={() => void revalidator.revalidate()}>
        <Link className="button button--quiet" to={error.kind === "unavailable" ? "/" : `/?state=${state}`}>
          {error.kind === "unavailable" ? "Pick another state" : "New search"}
        </Link>
      </ApiErrorNotice>
    </div>
  );
}
