import { replaceState } from "../store/replace-state.ts";
import type { Db } from "../store/open-database.ts";
import { DEMO_AS_OF, generateLicenses } from "./generate-licenses.ts";

/** Replaces each state's data with `perState` generated licenses, labelled `source: "demo"`. */
export async function fillDemo(db: Db, states: readonly string[], perState: number, seed = 1) {
  const filled = [];
  for (const state of states) {
    const started = performance.now();
    const { records } = await replaceState(
      db,
      { state, source: "demo", asOf: DEMO_AS_OF },
      generateLicenses(state, perState, seed),
    );
    filled.push({ state, records, seconds: (performance.now() - started) / 1000 });
  }
  return filled;
}
