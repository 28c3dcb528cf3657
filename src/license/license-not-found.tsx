import { Link } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { licenseQueries } from "../api/license-queries.ts";
import type { StateCoverage } from "../contract/envelopes.ts";
import { stateName } from "../contract/states.ts";
import { liveSources, sourceCovers } from "../shared/record-source.ts";
import { searchFormUrl } from "../shared/page-urls.ts";
import { VerdictBadge } from "../shared/verdict-badge.tsx";
import { LicenseNumberHeading } from "./license-number-heading.tsx";

interface Props {
  state: string;
  license: string;
  /** What the service's data of the state covers; null or missing when it does not say. */
  coverage: StateCoverage | null | undefined;
}

/** The service answered `data: null`: the state is covered, and our data of it holds no such number. */
export function LicenseNotFound({ state, license, coverage }: Props) {
  const stateLabel = stateName(state) ?? state.toUpperCase();
  // The agency's own lookup, from our table of the state (already fetched beside the record).
  const lookup = useQuery(licenseQueries.decoding(state)).data?.lookup;
  const sources = liveSources(coverage);

  return (
    <div className="not-found">
      <title>{`No license ${license} in our ${stateLabel} data – License Lookup`}</title>
      <LicenseNumberHeading stateLabel={stateLabel} license={license} />
      <section className="verdict-panel" data-verdict="not-found" aria-label="Verdict">
        <p className="verdict-panel__line">
          <VerdictBadge verdict="not found" />
          <span className="verdict-panel__reason">
            Not in our {stateLabel} data
            {sources.length === 0
              ? "."
              : sources.length === 1
                ? `, which covers ${sourceCovers(sources[0]!)}.`
                : ", which covers:"}
          </span>
        </p>
        {sources.length > 1 ? (
          <ul className="coverage-list">
            {sources.map((s) => (
              <li key={s.id}>{sourceCovers(s)}</li>
            ))}
          </ul>
        ) : null}
        <p className="verdict-panel__source">
          <strong>This does not mean the business is unlicensed.</strong>{" "}
          {lookup ? (
            <>
              Check {stateLabel}’s own records: <a href={lookup.url}>{lookup.title}</a>.
            </>
          ) : (
            <>Check with {stateLabel}’s liquor licensing authority.</>
          )}
        </p>
      </section>
      <p>
        License numbers must match exactly, leading zeros and punctuation included. Check the number against the
        license, or find the business by name or address.
      </p>
      <p>
        <Link className="button button--primary" to={searchFormUrl({ state, by: "license", q: license })}>
          Search {stateLabel}
        </Link>
      </p>
    </div>
  );
}
