import { loadSource } from "../../store/load-source.ts";
import type { Db } from "../../store/open-database.ts";
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
  const filled = [];
  for (const state of states) {
    const started = performance.now();
    const { records } = await loadSource(db, { ...DEMO_SOURCE, state }, generateLicenses(state, perState, seed));
    filled.push({ state, records, seconds: (performance.now() - started) / 1000 });
  }
  return filled;
}
