import { useMemo, type Ref } from "react";
import { ApiError } from "../api/api-error.ts";
import type { StateCoverage } from "../contract/envelopes.ts";
import { STATES, stateName } from "../contract/states.ts";
import { formatLocalTime } from "../shared/dates.ts";
import { formatIsoDate } from "../contract/calendar-date.ts";
import { liveSources, newestFirst, sourcesCover } from "../contract/record-source.ts";

interface Props {
  ref?: Ref<HTMLSelectElement>;
  value: string;
  onChange: (state: string) => void;
  /** The key's states; `null` (a service without the list) or not known: no state is marked. */
  coverage: readonly StateCoverage[] | null | undefined;
  invalid: boolean;
  describedBy: string;
}

export function StatePicker({ ref, value, onChange, coverage, invalid, describedBy }: Props) {
  // The same elements while the coverage is the same: a keystroke in the search box does not go over 60 options.
  const options = useMemo(() => {
    const covered = coverage ? new Set(coverage.map((c) => c.state)) : null;
    return STATES.map((s) => {
      const unavailable = covered !== null && !covered.has(s.code);
      return (
        <option key={s.code} value={s.code} disabled={unavailable}>
          {s.name} ({s.code.toUpperCase()}){unavailable ? " – unavailable" : ""}
        </option>
      );
    });
  }, [coverage]);
  // One flat list, whatever the coverage: options that move while the list is open would lose a choice.
  return (
    <select
      ref={ref}
      id="search-state"
      name="state"
      className="input select"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
    >
      <option value="">Choose a state…</option>
      {options}
    </select>
  );
}

/**
 * What backs the chosen state: the date of its newest data, what each of its sources covers and as of when, newest
 * first, then how many records from whom. A note longer than its room is cut on screen; the Data page has it all.
 */
export function coverageNote(state: string, coverage: readonly StateCoverage[] | null | undefined): string {
  if (!state || !coverage) return "";
  const c = coverage.find((s) => s.state === state);
  if (!c) {
    const name = stateName(state) ?? state.toUpperCase();
    return `License Lookup has no ${name} records for your team. Ask whoever runs your License Lookup to add ${name}.`;
  }
  const live = liveSources(c);
  const agencies = [...new Set((live.length ? live : c.sources).map((s) => s.agency))].join(" and ");
  const records = `${c.records.toLocaleString("en-US")} records from ${agencies || "an unnamed source"}.`;
  const covers = sourcesCover(c);
  // The data's date first: a note longer than its room is cut on screen, never before it.
  const newest = newestFirst(live)[0]?.as_of;
  const asOf = newest ? `Data as of ${formatIsoDate(newest)}. ` : "";
  return `${asOf}${covers ? `Covers ${covers}. ` : ""}${records}`;
}

/** The list of states could not be fetched: the service is down or failing, and no search will answer until it is back. */
export interface CoverageFailure {
  error: unknown;
  /** When it failed, in ms since the epoch. */
  at: number;
  retrying: boolean;
  retry: () => void;
}

export function ServiceUnreachable({ id, failure }: { id: string; failure: CoverageFailure }) {
  const requestId = failure.error instanceof ApiError ? failure.error.details.requestId : undefined;
  const time = formatLocalTime(new Date(failure.at).toISOString());
  return (
    <div id={id} className="notice notice--error field__notice" role="alert">
      <p>
        <strong>The license service cannot be reached.</strong> Nothing can be looked up until it answers. Failed at{" "}
        {time}
        {requestId ? ` (request id ${requestId})` : ""}.
      </p>
      <button type="button" className="button" onClick={failure.retry}>
        {failure.retrying ? "Trying again…" : "Try again"}
      </button>
    </div>
  );
}
