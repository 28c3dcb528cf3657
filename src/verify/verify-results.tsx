import { lazy, memo, Suspense, useState, type ReactNode, type RefObject } from "react";
import { flushSync } from "react-dom";
import { Link } from "react-router";
import { formatIsoDate } from "../contract/calendar-date.ts";
import { formatLocalTime } from "../shared/dates.ts";
import { absoluteLicenseUrl, licenseUrl } from "../shared/page-urls.ts";
import type { CsvRecord } from "../shared/verdict-csv.ts";
import { VerdictBadge } from "../shared/verdict-badge.tsx";
import { VERDICTS, type VerdictWord } from "../contract/verdict.ts";
import type { RowResult } from "./verify-list.ts";
import { WidestText } from "./widest-text.tsx";

// Its code (the watchlist's writes) is not the page's: it comes as a check begins, its button held meanwhile.
const WatchAll = lazy(async () => ({ default: (await import("./watch-all.tsx")).WatchAll }));

interface Props {
  headingRef: RefObject<HTMLHeadingElement | null>;
  /** In the list's order; undefined for rows still on their way. */
  results: readonly (RowResult | undefined)[];
  /** When the check began. */
  checkedAt: string;
  complete: boolean;
  /** "Recorded in Checks", once the ended run is recorded. */
  recorded?: ReactNode;
  /** False for an auditor: no "Watch all found". */
  watch?: boolean;
}

/**
 * A check's rows as they are answered. What the finished check shows above the table is there from its start (the
 * time, the counts, the buttons, held until the check ends), and the table grows only at its foot: nothing the
 * clerk is reading moves as answers arrive.
 */
export function VerifyResults({ headingRef, results, checkedAt, complete, recorded, watch = true }: Props) {
  const [shown, setShown] = useState<VerdictWord | "all">("all");
  const answered = results.filter((r): r is RowResult => r !== undefined);
  const counts = new Map(VERDICTS.map((v) => [v, answered.filter((r) => r.verdict === v).length]));
  // Rows answered out of turn (a state not covered, the next state's batch) wait for the rows above them,
  // counted meanwhile: a row never arrives above one already shown.
  const inTurn = answered.slice(0, results.includes(undefined) ? results.indexOf(undefined) : undefined);
  const rows = shown === "all" ? inTurn : inTurn.filter((r) => r.verdict === shown);
  const total = count(results.length);
  const time = formatLocalTime(new Date(checkedAt).toISOString());

  return (
    <section className="verify__results" aria-labelledby="verify-results-heading">
      <h2 id="verify-results-heading" ref={headingRef} tabIndex={-1}>
        {complete ? `${answered.length.toLocaleString("en-US")} rows verified` : "Verifying…"}
      </h2>
      <p className="verify__checked">{complete ? `Checked ${time}` : `Started ${time}`}</p>
      {/* A line of its own, kept from the start: "Recorded in Checks" arrives after the run and moves nothing. */}
      <p className="verify__recorded">{recorded}</p>

      <fieldset className="verify__filter">
        <legend>Show</legend>
        <label>
          <input type="radio" name="verdict" checked={shown === "all"} onChange={() => setShown("all")} />{" "}
          <WidestText text={`all (${count(answered.length)})`} widest={`all (${total})`} />
        </label>
        {VERDICTS.map((verdict) => (
          <label key={verdict}>
            <input
              type="radio"
              name="verdict"
              checked={shown === verdict}
              onChange={() => setShown(verdict)}
              disabled={counts.get(verdict) === 0}
            />{" "}
            <WidestText text={`${verdict} (${count(counts.get(verdict)!)})`} widest={`${verdict} (${total})`} />
          </label>
        ))}
      </fieldset>

      <div className="verify__actions no-print">
        <button
          type="button"
          className="button"
          disabled={!complete}
          onClick={() => void download(answered, checkedAt)}
        >
          Download CSV
        </button>
        <button
          type="button"
          className="button"
          disabled={!complete}
          onClick={() => {
            // The report holds every row, whatever the screen is filtered to.
            flushSync(() => setShown("all"));
            window.print();
          }}
        >
          Print report
        </button>
        {watch ? (
          <Suspense
            fallback={
              <button type="button" className="button" disabled>
                <WidestText text="Watch all found" widest={`Watch all found (${total})`} />
              </button>
            }
          >
            {/* A new check is a new list to watch: what the last one added is not this one's. */}
            <WatchAll key={checkedAt} results={answered} total={total} complete={complete} />
          </Suspense>
        ) : null}
      </div>

      <div className="verify__table-wrap">
        <table className="verify__table">
          <caption className="visually-hidden">The verdict of each row of the list</caption>
          <thead>
            <tr>
              <th scope="col">Line</th>
              <th scope="col">State</th>
              <th scope="col">Number given</th>
              <th scope="col">Matched</th>
              <th scope="col">Verdict</th>
              <th scope="col">Reason</th>
              <th scope="col">Business</th>
              <th scope="col">Owner</th>
              <th scope="col">Expires</th>
              <th scope="col">Source</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <ResultRow key={r.given.line} result={r} />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** A row answered stays the same object: it renders once, however many rows arrive after it. */
const ResultRow = memo(function ResultRow({ result: r }: { result: RowResult }) {
  return (
    <tr data-verdict={r.verdict.replace(" ", "-")}>
      <td>{r.given.line}</td>
      <td>{stateShown(r)}</td>
      <td className="mono">{r.given.license}</td>
      <td className="mono">
        {r.matched && r.state ? <Link to={licenseUrl(r.state, r.matched)}>{r.matched}</Link> : null}
      </td>
      <td>
        <VerdictBadge verdict={r.verdict} />
      </td>
      <td>{r.reason}</td>
      <td>{r.business}</td>
      <td>{r.owner}</td>
      <td>{r.expires ? formatIsoDate(r.expires) : ""}</td>
      <td>{r.source ? `${r.source}${r.asOf ? `, as of ${formatIsoDate(r.asOf)}` : ""}` : ""}</td>
    </tr>
  );
});

/** The state as a code where the row names one, else as written. */
function stateShown(r: RowResult): string {
  return r.state ? r.state.toUpperCase() : r.given.state;
}

function csvRecord(r: RowResult, checkedAt: string): CsvRecord {
  return {
    row: String(r.given.line),
    state: stateShown(r),
    license: r.given.license,
    matched_license: r.matched,
    verdict: r.verdict,
    reason: r.reason,
    status: r.status,
    business: r.business,
    owner: r.owner,
    expires: r.expires,
    source: r.source,
    as_of: r.asOf,
    checked_at: checkedAt,
    link: r.matched && r.state ? absoluteLicenseUrl(r.state, r.matched) : "",
  };
}

/** The CSV writer (papaparse) arrives on the first download, not with the page. */
async function download(results: readonly RowResult[], checkedAt: string) {
  const { downloadCsv, verdictCsv } = await import("../shared/verdict-csv.ts");
  downloadCsv(verdictCsv(results.map((r) => csvRecord(r, checkedAt))), `license-check-${checkedAt.slice(0, 10)}.csv`);
}

function count(n: number): string {
  return n.toLocaleString("en-US");
}
