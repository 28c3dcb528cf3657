import type { LicenseRecord } from "../store/license-record.ts";

type Overrides = Partial<Omit<LicenseRecord, "address" | "details">> & {
  address?: Partial<LicenseRecord["address"]>;
  details?: Partial<LicenseRecord["details"]>;
};

/** A complete, valid record for tests that need particular names or numbers; fields default sensibly. */
export function licenseFixture(overrides: Overrides = {}): LicenseRecord {
  const state = overrides.state ?? "ny";
  const { address, details, ...top } = overrides;
  return {
    license: "1000001",
    business: "TEST TAVERN",
    owner: "TEST OWNER LLC",
    phone: null,
    status: "active",
    ...top,
    state,
    address: {
      line_1: "1 MAIN ST",
      line_2: null,
      city: "NEW YORK",
      county: "NEW YORK",
      state: state.toUpperCase(),
      zip: "10001",
      ...address,
    },
    dates: overrides.dates ?? {
      [state]: { effective: "2025-01-01", expires: "2027-12-31", issued_original: "2010-05-01", issued_latest: null },
    },
    details: { class: "252", description: "ON-PREMISES LIQUOR", type: "OP", ...details },
  };
}
