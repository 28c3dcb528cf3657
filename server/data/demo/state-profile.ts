import type { SeededRandom } from "./seeded-random.ts";
import type { Street } from "./demo-streets.ts";

/** What kind of business a license is for; it decides how the business name reads. */
export type Flavor = "bar" | "restaurant" | "hotel" | "club" | "store" | "grocery" | "maker";

/** One of a state's license types, with how common it is. */
export interface LicenseKind {
  type: string;
  description: string;
  classes: readonly string[];
  flavors: readonly Flavor[];
  weight: number;
}

/** A city in a county, with the ZIPs, area codes and streets its addresses use. */
export interface Place {
  county: string;
  city: string;
  /** Inclusive range of five-digit ZIPs, as numbers. */
  zip: readonly [number, number];
  areaCodes: readonly string[];
  streets: readonly Street[];
  weight: number;
  /** Share of named streets given a directional such as `N` (`1200 N MAIN ST`). */
  directionalShare?: number;
  /** Queens writes house numbers as `88-08`. */
  hyphenatedNumbers?: boolean;
  /** DC puts a quadrant after the street (`1234 14TH ST NW`); repeated entries weigh more. */
  quadrants?: readonly string[];
}

/** Issues license numbers for one run; called once per record, in record order. */
export interface LicenseNumbering<P extends Place> {
  // Method syntax on purpose: the generator only ever passes a place from the same profile.
  next(index: number, kind: LicenseKind, place: P, rng: SeededRandom): string;
}

export interface StateProfile<P extends Place = Place> {
  /** Lower-case state code. */
  code: string;
  places: readonly P[];
  kinds: readonly LicenseKind[];
  /** Usual length of one license term, in days. */
  termDays: number;
  numbering(seed: number): LicenseNumbering<P>;
}
