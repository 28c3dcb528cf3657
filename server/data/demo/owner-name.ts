import * as N from "./demo-names.ts";
import type { Flavor } from "./state-profile.ts";
import type { SeededRandom } from "./seeded-random.ts";

/** Share of licensees that are companies rather than people, by kind of business. */
const COMPANY_SHARE: Readonly<Record<Flavor, number>> = {
  bar: 0.55,
  restaurant: 0.6,
  hotel: 0.9,
  club: 0.85,
  store: 0.5,
  grocery: 0.55,
  maker: 0.85,
};

const SKIPPED_IN_INITIALS = new Set(["THE", "&", "OF", "#"]);

/** `DRT GROUP LLC` (from DEAD RABBIT TAVERN), `SMITH HOSPITALITY INC`, or a person: `MARIA GONZALEZ`. */
export function ownerName(rng: SeededRandom, flavor: Flavor, business: string): string {
  if (!rng.chance(COMPANY_SHARE[flavor])) return personName(rng);
  // Clubs and chapters hold their own licenses.
  if (flavor === "club") return `${business} INC`;
  const r = rng.next();
  const ending = rng.pick(N.COMPANY_ENDINGS);
  if (r < 0.3) {
    const letters = initials(business);
    if (letters.length >= 2) return `${letters} ${rng.pick(N.COMPANY_MIDDLES)} ${ending}`;
  }
  if (r < 0.6) return `${rng.pick(N.SURNAMES)} ${rng.pick(N.COMPANY_MIDDLES)} ${ending}`;
  if (r < 0.85) return `${business} ${ending}`;
  return `${rng.pick(N.SURNAMES)} & ${rng.pick(N.SURNAMES)} ${ending}`;
}

function personName(rng: SeededRandom): string {
  const first = rng.pick(N.FIRST_NAMES);
  const last = rng.pick(N.SURNAMES);
  if (rng.chance(0.15)) return `${first} ${String.fromCharCode(65 + rng.int(0, 25))} ${last}`;
  return `${first} ${last}`;
}

/** First letters of the name's words: DEAD RABBIT TAVERN -> DRT. */
function initials(name: string): string {
  let out = "";
  for (const word of name.split(" ")) {
    const first = word.charCodeAt(0);
    if (!SKIPPED_IN_INITIALS.has(word) && first >= 65 && first <= 90) out += word[0];
  }
  return out;
}
