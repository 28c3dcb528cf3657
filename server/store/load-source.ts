import type { LicenseRecord } from "./license-record.ts";
import type { Db } from "./open-database.ts";
import { replaceState, type ReplaceOptions } from "./replace-state.ts";
import { createSourcesRepo, type NewSource } from "./sources-repo.ts";

/**
 * Replaces a state's records, and its sources, with records that are one source's word (generated
 * demo data, a test's fixtures): the state starts over from that source alone. The old records and
 * sources go with the flip to the new set, not before.
 */
export async function loadSource(
  db: Db,
  source: NewSource,
  records: Iterable<LicenseRecord> | AsyncIterable<LicenseRecord>,
  options: Pick<ReplaceOptions, "onProgress"> = {},
) {
  const sources = createSourcesRepo(db);
  sources.dropAbandoned(source.state);
  const sourceId = sources.begin(source);
  return replaceState(db, { state: source.state, source: source.adapter, asOf: source.asOf, sourceId }, records, {
    ...options,
    withFlip: () => {
      sources.dropAllBut(source.state, [sourceId]);
      sources.markLoaded([sourceId]);
    },
  });
}
