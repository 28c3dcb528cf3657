import type { Db } from "../store/open-database.ts";
import { replaceState } from "../store/replace-state.ts";
import { createSourcesRepo } from "../store/sources-repo.ts";
import { DEMO_AS_OF, generateLicenses } from "./generate-licenses.ts";

/** The demo data as a source: made-up, and saying so wherever a source is shown. */
const DEMO_SOURCE = {
  adapter: "demo",
  family: "demo",
  kind: "roster",
  agency: "License Lookup demo data",
  title: "Generated demo licenses",
  coverage: "made-up licenses for trying License Lookup: not real records of any agency",
  file: null,
  sha256: null,
  bytes: null,
  asOf: DEMO_AS_OF,
  asOfFrom: "the demo data's reference date",
} as const;

/** Replaces each state's data, sources and all, with `perState` generated licenses. */
export async function fillDemo(db: Db, states: readonly string[], perState: number, seed = 1) {
  const sources = createSourcesRepo(db);
  const filled = [];
  for (const state of states) {
    const started = performance.now();
    sources.dropAbandoned(state);
    const sourceId = sources.begin({ ...DEMO_SOURCE, state });
    const { records } = await replaceState(
      db,
      { state, source: "demo", asOf: DEMO_AS_OF, sourceId },
      generateLicenses(state, perState, seed),
      {
        // Whatever the state held before goes with the flip to the demo set, and not before.
        withFlip: () => {
          sources.dropAllBut(state, [sourceId]);
          sources.markLoaded([sourceId]);
        },
      },
    );
    filled.push({ state, records, seconds: (performance.now() - started) / 1000 });
  }
  return filled;
}
