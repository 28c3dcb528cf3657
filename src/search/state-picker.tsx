import type { Ref } from "react";
import type { StateCoverage } from "../contract/envelopes.ts";
import { STATES } from "../contract/states.ts";
import { formatIsoDate } from "../shared/dates.ts";

interface Props {
  ref?: Ref<HTMLSelectElement>;
  value: string;
  onChange: (state: string) => void;
  /** The key's states; `null` or not yet known: every state may answer. */
  coverage: readonly StateCoverage[] | null | undefined;
  invalid: boolean;
  describedBy: string;
}

export function StatePicker({ ref, value, onChange, coverage, invalid, describedBy }: Props) {
  const covered = coverage ? new Set(coverage.map((c) => c.state)) : null;
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
      {STATES.map((s) => {
        const unavailable = covered !== null && !covered.has(s.code);
        return (
          <option key={s.code} value={s.code} disabled={unavailable}>
            {s.name} ({s.code.toUpperCase()}){unavailable ? " – unavailable" : ""}
          </option>
        );
      })}
    </select>
  );
}

/** One line about what backs the chosen state: how many records, from where, how fresh. */
export function coverageNote(state: string, coverage: readonly StateCoverage[] | null | undefined): string {
  if (!state || !coverage) return "";
  const c = coverage.find((s) => s.state === state);
  if (!c) return "Your API key does not cover this state.";
  const agencies = [...new Set(c.sources.map((s) => s.agency))].join(" and ");
  const dates = [...new Set(c.sources.map((s) => s.as_of).filter((d) => d !== null))].sort();
  const asOf = dates.length
    ? `, as of ${formatIsoDate(dates[0]!)}${dates.length > 1 ? ` to ${formatIsoDate(dates.at(-1)!)}` : ""}`
    : "";
  return `${c.records.toLocaleString("en-US")} records from ${agencies || "an unnamed source"}${asOf}.`;
}
