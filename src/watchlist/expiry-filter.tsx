import { useSearchParams } from "react-router";
import { EXPIRING_DAYS, readExpiring, type ExpiringDays } from "./watch-rows.ts";

const count = (n: number) => n.toLocaleString("en-US");

interface Props {
  /** How many are watched, and how many expire within each window. */
  all: number;
  counts: ReadonlyMap<ExpiringDays, number>;
}

/** All, or those expiring within 30, 60 or 90 days: the choice lives in the URL (`?expiring=30`), replaced rather than stacked in history. */
export function ExpiryFilter({ all, counts }: Props) {
  const [params, setParams] = useSearchParams();
  const expiring = readExpiring(params);

  function choose(days: ExpiringDays | null) {
    setParams(
      (now) => {
        const next = new URLSearchParams(now);
        if (days === null) next.delete("expiring");
        else next.set("expiring", String(days));
        return next;
      },
      { replace: true },
    );
  }

  return (
    <fieldset className="watch-table__filter">
      <legend>Show</legend>
      <label>
        <input type="radio" name="expiring" checked={expiring === null} onChange={() => choose(null)} /> All (
        {count(all)})
      </label>
      {EXPIRING_DAYS.map((days) => (
        <label key={days}>
          <input type="radio" name="expiring" checked={expiring === days} onChange={() => choose(days)} /> Expiring
          within {days} days ({count(counts.get(days) ?? 0)})
        </label>
      ))}
    </fieldset>
  );
}
