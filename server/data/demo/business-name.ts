import * as N from "./demo-names.ts";
import type { Street } from "./demo-streets.ts";
import type { Flavor } from "./state-profile.ts";
import type { SeededRandom } from "./seeded-random.ts";

/**
 * A business name that reads like a real bar, restaurant or shop of that flavor. Stock endings
 * (TAVERN, PUB, WINE & SPIRITS) recur so searches find many; word pairs and surnames make many
 * names nearly unique.
 */
export function businessName(rng: SeededRandom, flavor: Flavor, city: string, street: Street): string {
  const r = rng.next();
  switch (flavor) {
    case "bar":
      if (r < 0.35) return `${animal(rng)} ${rng.pick(N.BAR_WORDS)}`;
      if (r < 0.55) return `${possessive(rng)} ${rng.pick(N.BAR_WORDS)}`;
      if (r < 0.65) return `THE ${animal(rng)}`;
      if (r < 0.75) return `${rng.pick(N.NOUNS)} & ${rng.pick(N.NOUNS)}`;
      if (r < 0.9) return `${local(rng, city, street)} ${rng.pick(N.BAR_WORDS)}`;
      return possessive(rng);
    case "restaurant":
      if (r < 0.25) return foreign(rng);
      if (r < 0.45) return `${possessive(rng)} ${rng.pick(N.RESTAURANT_WORDS)}`;
      if (r < 0.65) return `${animal(rng)} ${rng.pick(N.RESTAURANT_WORDS)}`;
      if (r < 0.8) return `${local(rng, city, street)} ${rng.pick(N.RESTAURANT_WORDS)}`;
      if (r < 0.9) return `${rng.pick(N.NOUNS)} & ${rng.pick(N.NOUNS)} ${rng.pick(N.RESTAURANT_WORDS)}`;
      return `THE ${animal(rng)}`;
    case "hotel":
      if (r < 0.4) return `${city} ${rng.pick(N.HOTEL_WORDS)}`;
      if (r < 0.7) return `THE ${rng.pick(N.SURNAMES)} ${rng.pick(N.HOTEL_WORDS)}`;
      return `${animal(rng)} ${rng.pick(N.HOTEL_WORDS)}`;
    case "club":
      if (r < 0.6) return clubChapter(rng);
      if (r < 0.9) return `${city} ${rng.pick(N.CLUB_WORDS)}`;
      return `${rng.pick(N.SURNAMES)} SOCIAL CLUB`;
    case "store":
      if (r < 0.3) return `${street.long} ${rng.pick(N.STORE_WORDS)}`;
      if (r < 0.5) return `${city} ${rng.pick(N.STORE_WORDS)}`;
      if (r < 0.7) return `${possessive(rng)} ${rng.pick(N.STORE_WORDS)}`;
      if (r < 0.85) return `${animal(rng)} ${rng.pick(N.STORE_WORDS)}`;
      return `${rng.pick(N.SURNAMES)} ${rng.pick(N.STORE_WORDS)}`;
    case "grocery":
      if (r < 0.2) return `${rng.pick(N.CHAIN_STORES)} #${rng.int(100, 9999)}`;
      if (r < 0.5) return `${street.long} ${rng.pick(N.GROCERY_WORDS)}`;
      if (r < 0.75) return `${rng.pick(N.SURNAMES)} ${rng.pick(N.GROCERY_WORDS)}`;
      return `${city} ${rng.pick(N.GROCERY_WORDS)}`;
    case "maker":
      if (r < 0.4) return `${animal(rng)} ${rng.pick(N.MAKER_WORDS)}`;
      if (r < 0.65) return `${rng.pick(N.SURNAMES)} FAMILY ${rng.pick(N.MAKER_WORDS)}`;
      if (r < 0.85) return `${rng.pick(N.NOUNS)} CREEK ${rng.pick(N.MAKER_WORDS)}`;
      return `${city} ${rng.pick(N.MAKER_WORDS)}`;
  }
}

/** `GOLDEN LION`, `DEAD RABBIT`. */
function animal(rng: SeededRandom): string {
  return `${rng.pick(N.ADJECTIVES)} ${rng.pick(N.NOUNS)}`;
}

/** `JOE'S`, `O'MALLEY'S`. */
function possessive(rng: SeededRandom): string {
  return `${rng.chance(0.5) ? rng.pick(N.NICKNAMES) : rng.pick(N.SURNAMES)}'S`;
}

/** The street or the city the place is on: `WATER STREET`, `BROOKLYN`. */
function local(rng: SeededRandom, city: string, street: Street): string {
  return rng.chance(0.5) ? street.long : city;
}

/** `CAFÉ ROYALE`, `TRATTORIA SAN MARCO`, `TAQUERÍA OAXACA`. */
function foreign(rng: SeededRandom): string {
  const language = rng.pick(N.FOREIGN_RESTAURANTS);
  return `${rng.pick(language.openers)} ${rng.pick(language.names)}`;
}

/** `VFW POST 1234`, `ELKS LODGE #56`. */
function clubChapter(rng: SeededRandom): string {
  const name = rng.pick(N.CLUB_NAMES);
  const number = rng.int(1, 2999);
  return name.endsWith("#") ? `${name}${number}` : `${name} ${number}`;
}
