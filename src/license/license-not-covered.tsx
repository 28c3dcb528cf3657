import type { ReactNode } from "react";
import { Link } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { licenseQueries } from "../api/license-queries.ts";
import { stateName } from "../contract/states.ts";
import { VerdictBadge } from "../shared/verdict-badge.tsx";
import { LicenseNumberHeading } from "./license-number-heading.tsx";

/** The service has no data of this state that this team may read: nothing can be said about the license. */
export function LicenseNotCovered({
  state,
  license,
  recorded,
}: {
  state: string;
  license: string;
  /** "Recorded in Checks", once the check is recorded: beside the verdict. */
  recorded?: ReactNode;
}) {
  const stateLabel = stateName(state) ?? state.toUpperCase();
  // The agency's own lookup, from our table of the state (already fetched beside the record).
  const lookup = useQuery(licenseQueries.decoding(state)).data?.lookup;
  return (
    <div className="not-found">
      <title>{`${stateLabel} is not covered – License Lookup`}</title>
      <LicenseNumberHeading stateLabel={stateLabel} license={license} />
      <section className="verdict-panel" data-verdict="not-covered" aria-label="Verdict">
        <p className="verdict-panel__line">
          <VerdictBadge verdict="not covered" />
          <span className="verdict-panel__reason">
            License Lookup has no {stateLabel} records for your team, so it cannot say anything about this license.
          </span>
        </p>
        <p className="verdict-panel__source">
          {lookup ? (
            <>
              Check it in {stateLabel}’s own records: <a href={lookup.url}>{lookup.title}</a>.
            </>
          ) : (
            <>Check it with {stateLabel}’s liquor licensing authority.</>
          )}{" "}
          To look up {stateLabel} here, ask whoever runs License Lookup for your team to add it.
        </p>
        <p className="verdict-panel__recorded">{recorded}</p>
      </section>
      <p>
        <Link className="button button--primary" to="/">
          Search another state
        </Link>
      </p>
    </div>
  );
}
