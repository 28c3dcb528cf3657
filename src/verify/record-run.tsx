import { useMutation } from "@tanstack/react-query";
import { useEffect } from "react";
import { checksMutations } from "../api/checks-queries.ts";
import type { RecordRow } from "../contract/checks.ts";
import { RecordedInChecks } from "../shared/recorded-in-checks.tsx";

/**
 * Records a Verify run once it has ended (one entry per row as the clerk gave it, the server reading each license), then says so beside
 * the results. Mounted afresh for each run (its `key`), so a run is recorded once.
 */
export function RecordRun({ rows }: { rows: RecordRow[] }) {
  const { mutate, data } = useMutation(checksMutations.record());
  useEffect(() => mutate({ action: "verify", rows }), [mutate, rows]);
  return <RecordedInChecks ids={data} />;
}
