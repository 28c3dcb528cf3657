import { useQuery } from "@tanstack/react-query";
import { Fragment } from "react";
import { Link } from "react-router";
import { licenseQueries } from "../api/license-queries.ts";
import { nearNumbers } from "../contract/near-numbers.ts";
import { licenseUrl } from "./page-urls.ts";

/**
 * "Did you mean 0101-33-005-003?" under a number the state does not hold as written, for each near form
 * (the state's own format) it does hold. A link the clerk chooses, never a redirect: a near number may be
 * someone else's license. Nothing while the answer is on its way, nor when it fails.
 */
export function NearNumberOffer({ state, number }: { state: string; number: string }) {
  const decoding = useQuery(licenseQueries.decoding(state));
  const given = number.trim();
  const near = nearNumbers(given, decoding.data?.number?.format ?? null);
  const held = useQuery({ ...licenseQueries.held(state, [given, ...near]), enabled: near.length > 0 });
  const licenses = held.data ?? [];
  const meant = licenses[0] === null ? near.filter((_, i) => licenses[i + 1]) : [];
  if (meant.length === 0) return null;
  return (
    <p className="notice notice--info near-number">
      Did you mean{" "}
      {meant.map((n, i) => (
        <Fragment key={n}>
          {i > 0 ? " or " : null}
          <Link to={licenseUrl(state, n)}>{n}</Link>
        </Fragment>
      ))}
      ?
    </p>
  );
}
