import { Link } from "react-router";
import { CHECKS_PAGE } from "../contract/checks.ts";

/**
 * "Recorded in Checks", quietly beside a verdict: a link to the entry's receipt when there is one, else to the
 * Checks page. Nothing at all until the record is made, or when it is not (no app server, a refusal).
 */
export function RecordedInChecks({ ids }: { ids: readonly (number | null)[] | undefined }) {
  const recorded = ids?.filter((id): id is number => id !== null) ?? [];
  if (recorded.length === 0) return null;
  const to = recorded.length === 1 ? `${CHECKS_PAGE}/${recorded[0]}` : CHECKS_PAGE;
  return (
    <Link className="recorded-in-checks" to={to}>
      Recorded in Checks
    </Link>
  );
}
