import type { LicenseRecord } from "../../store/license-record.ts";
import { businessName } from "./business-name.ts";
import { DEMO_REFERENCE_DATE, licenseDates } from "./license-dates.ts";
import { ownerName } from "./owner-name.ts";
import { deriveSeed, SeededRandom } from "./seeded-random.ts";
import type { StateProfile } from "./state-profile.ts";
import { ca } from "./states/ca.ts";
import { dc } from "./states/dc.ts";
import { ma } from "./states/ma.ts";
import { nj } from "./states/nj.ts";
import { ny } from "./states/ny.ts";
import { tx } from "./states/tx.ts";
import { addressLine1, addressLine2, zipCode } from "./street-address.ts";
import { weightedPicker } from "./weighted-picker.ts";

/** States the generator knows. */
export const DEMO_STATES = ["ny", "ma", "nj", "ca", "tx", "dc"] as const;
export type DemoState = (typeof DEMO_STATES)[number];

/** More than any benchmark needs, and within what every state's numbering keeps unique. */
export const MAX_DEMO_COUNT = 5_000_000;
export const DEFAULT_DEMO_SEED = 1;
/** The demo data is current as of its fixed "today", the date its expiries are spread around. */
export const DEMO_AS_OF = DEMO_REFERENCE_DATE;

const PROFILES: Readonly<Record<DemoState, StateProfile>> = { ny, ma, nj, ca, tx, dc };

const STATUSES = [
  { status: "active", weight: 80 },
  { status: "expired", weight: 8 },
  { status: "pending", weight: 4 },
  { status: "cancelled", weight: 3.5 },
  { status: "suspended", weight: 2.5 },
  { status: "surrendered", weight: 2 },
];
const pickStatus = weightedPicker(STATUSES, (s) => s.weight);

const PHONE_SHARE = 0.7;
const CLASS_NULL_SHARE = 0.1;
const DESCRIPTION_NULL_SHARE = 0.05;
// 555-0100 to 555-0199 are reserved for fiction, so no demo phone number rings anyone.
const PHONE_LINES = Array.from({ length: 100 }, (_, i) => `555-01${String(i).padStart(2, "0")}`);

export function isDemoState(state: string): state is DemoState {
  return (DEMO_STATES as readonly string[]).includes(state);
}

/**
 * Synthetic licenses for one state, deterministic in (state, seed): record i is the same whatever
 * the count and on every machine, and license numbers never repeat within a run.
 * Record 0 of `ny` is always license `0012345`, the documented demo link.
 */
export function generateLicenses(
  state: string,
  count: number,
  seed: number = DEFAULT_DEMO_SEED,
): Generator<LicenseRecord, void> {
  if (!isDemoState(state)) {
    throw new Error(`No demo data for state "${state}": the generator knows ${DEMO_STATES.join(", ")}.`);
  }
  if (!Number.isSafeInteger(count) || count < 0 || count > MAX_DEMO_COUNT) {
    throw new RangeError(`Demo record count must be a whole number from 0 to ${MAX_DEMO_COUNT}, not ${count}.`);
  }
  if (!Number.isSafeInteger(seed)) throw new RangeError(`Demo seed must be a whole number, not ${seed}.`);
  return records(PROFILES[state], count, seed);
}

function* records(profile: StateProfile, count: number, seed: number): Generator<LicenseRecord, void> {
  const rng = new SeededRandom(deriveSeed(seed, profile.code));
  const numbering = profile.numbering(seed);
  const pickKind = weightedPicker(profile.kinds, (k) => k.weight);
  const pickPlace = weightedPicker(profile.places, (p) => p.weight);
  const code = profile.code;
  const upper = code.toUpperCase();

  for (let index = 0; index < count; index++) {
    const kind = pickKind(rng.next());
    const place = pickPlace(rng.next());
    const flavor = rng.pick(kind.flavors);
    const street = rng.pick(place.streets);
    const business = businessName(rng, flavor, place.city, street);
    const status = pickStatus(rng.next()).status;
    yield {
      license: numbering.next(index, kind, place, rng),
      business,
      owner: ownerName(rng, flavor, business),
      phone: rng.chance(PHONE_SHARE) ? `(${rng.pick(place.areaCodes)}) ${rng.pick(PHONE_LINES)}` : null,
      state: code,
      status,
      address: {
        line_1: addressLine1(rng, place, street),
        line_2: addressLine2(rng),
        city: place.city,
        county: place.county,
        state: upper,
        zip: zipCode(rng, place),
      },
      dates: { [code]: licenseDates(rng, status, profile.termDays) },
      details: {
        class: rng.chance(CLASS_NULL_SHARE) ? null : rng.pick(kind.classes),
        description: rng.chance(DESCRIPTION_NULL_SHARE) ? null : kind.description,
        type: kind.type,
      },
    };
  }
}
