import type { License } from "../../src/contract/license.ts";

/**
 * A license as a source produces it: everything the contract shows except what the store adds
 * (`object`, and `updated_at`, which is the time the record was written).
 */
export type LicenseRecord = Omit<License, "object" | "updated_at">;

/** What a state's data set is and where it came from; shown by `GET /v2/states`. */
export interface DatasetMeta {
  state: string;
  /** `demo`, or the source adapter's name such as `ny-sla`. */
  source: string;
  /** `YYYY-MM-DD`: when the source says its data was current, else null. */
  asOf: string | null;
}
