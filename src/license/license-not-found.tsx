import { lazy, Suspense, type ReactNode } from "react";
import { Link } from "react-router";
import type { DecodingTable } from "../contract/decoding/decoding-table.ts";
import type { StateCoverage } from "../contract/envelopes.ts";
import { stateName } from "../contract/states.ts";
import { formatIsoDate } from "../contract/calendar-date.ts";
import { liveSources, sourceCovers } from "../contract/record-source.ts";
import { searchFormUrl } from "../shared/page-urls.ts";
import { VerdictBadge } from "../shared/verdict-badge.tsx";
import { noLongerListed } from "./history-words.ts";
import { LicenseHistory } from "./license-history.tsx";
import { LicenseNumberHeading } from "./license-number-heading.tsx";
import { WithHistory, type HistoryAnswer } from "./with-history.tsx";

// Nearby numbers are offered once the page has said "not found": their code comes then.
const NearNumberOffer = lazy(async () => ({
  default: (await import("../shared/near-number-offer.tsx")).NearNumberOffer,
}));

interface Props {
  state: string;
  license: string;
  /** What the service's data of the state covers; null or missing when it does not say. */
  coverage: StateCoverage | null | undefined;
  /** The state's table: its agency's own lookup, and the code names of the history. */
  decoding: DecodingTable | null;
  /** "Recorded in Checks", once the check is recorded: beside the verdict. */
  recorded?: ReactNode;
}

/**
 * The service answered `data: null`: the state is covered, and our data of it holds no such number
 * today. Its history may tell that a list named it once: then the page says so, not a bare "not found".
 */
export function LicenseNotFound(props: Props) {
  const stateLabel = stateName(props.state) ?? props.state.toUpperCase();
  return (
    <div className="not-found">
      <LicenseNumberHeading stateLabel={stateLabel} license={props.license} />
      <WithHistory state={props.state} license={props.license}>
        {(answer) => <NotFoundAnswer {...props} stateLabel={stateLabel} answer={answer} />}
      </WithHistory>
    </div>
  );
}

function NotFoundAnswer({
  state,
  license,
  coverage,
  decoding,
  recorded,
  stateLabel,
  answer,
}: Props & { stateLabel: string; answer: HistoryAnswer }) {
  const lookup = decoding?.lookup;
  const sources = liveSources(coverage);
  const past = "history" in answer ? answer.history : null;
  const known = past !== null && past.entries.length > 0;
  const gone = past && noLongerListed(past);
  const day = (iso: string | null) => (iso ? formatIsoDate(iso) : "a date not given");

  return (
    <>
      <title>
        {gone
          ? `License ${license} is no longer listed in ${stateLabel} – License Lookup`
          : `No license ${license} in our ${stateLabel} data – License Lookup`}
      </title>
      <section className="verdict-panel" data-verdict="not-found" aria-label="Verdict">
        <p className="verdict-panel__line">
          <VerdictBadge verdict="not found" />
          <span className="verdict-panel__reason">
            {gone ? (
              `${license} is no longer listed: the list of ${day(gone.since)} does not name it; it was last listed in the list of ${day(gone.last)}.`
            ) : known ? (
              `Not in our ${stateLabel} data today, though its sources named it before: see its history below.`
            ) : (
              <>
                Not in our {stateLabel} data
                {sources.length === 0
                  ? "."
                  : sources.length === 1
                    ? `, which covers ${sourceCovers(sources[0]!)}.`
                    : ", which covers:"}
              </>
            )}
          </span>
        </p>
        {sources.length > 1 && !known ? (
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
        <p className="verdict-panel__recorded">{recorded}</p>
      </section>
      {known ? null : (
        <Suspense fallback={null}>
          <NearNumberOffer state={state} number={license} />
        </Suspense>
      )}
      {known ? (
        <p>
          The number is written right: our data named it before. To see whether the business holds a license under
          another number, find it by name or address.
        </p>
      ) : (
        <p>
          License numbers must match exactly, leading zeros and punctuation included. Check the number against the
          license, or find the business by name or address.
        </p>
      )}
      <p>
        <Link className="button button--primary" to={searchFormUrl({ state, by: "license", q: license })}>
          Search {stateLabel}
        </Link>
      </p>
      <LicenseHistory answer={answer} decoding={decoding} stateLabel={stateLabel} />
    </>
  );
}
