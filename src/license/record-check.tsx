import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { sessionQuery } from "../api/session-query.ts";
import { checksMutations } from "../api/checks-queries.ts";
import { RecordedInChecks } from "../shared/recorded-in-checks.tsx";

/**
 * Mounted where the page shows its verdict: records the check once per page opened (the server reads the license
 * and keeps what it served), then says so beside the verdict. Whoever is signed in, an auditor too: every
 * verdict a person saw is on record. Without the app's server (no session) there is nothing to record in.
 */
export function RecordCheck({ state, license }: { state: string; license: string }) {
  const { key } = useLocation();
  const session = useQuery(sessionQuery());
  const { mutate, data } = useMutation(checksMutations.record());
  const recorded = useRef<string | null>(null);
  const records = !session.isPending && session.data != null;

  useEffect(() => {
    const opening = `${key} ${state} ${license}`;
    // Once per opening: not again on a render, nor on React's second run of an effect in development.
    if (!records || recorded.current === opening) return;
    recorded.current = opening;
    mutate({ action: "license page", rows: [{ state, license }] });
  }, [key, state, license, records, mutate]);

  return <RecordedInChecks ids={data} />;
}
