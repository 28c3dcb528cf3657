// Word lists for synthetic business and owner names, upper case as state exports write them.
// A word repeated in a list is simply more common.

// prettier-ignore
export const FIRST_NAMES = [
  "JAMES", "JOHN", "ROBERT", "MICHAEL", "WILLIAM", "DAVID", "JOSEPH", "THOMAS", "CHARLES", "CHRISTOPHER",
  "DANIEL", "MATTHEW", "ANTHONY", "MARK", "PAUL", "STEVEN", "KEVIN", "BRIAN", "PATRICK", "SEAN",
  "MARIA", "JENNIFER", "LINDA", "ELIZABETH", "SUSAN", "JESSICA", "SARAH", "KAREN", "NANCY", "LISA",
  "MARGARET", "ANGELA", "MICHELLE", "LAURA", "ROSA", "CARMEN", "ANA", "LUIS", "CARLOS", "JOSE", "JOSÉ",
  "JUAN", "MIGUEL", "JORGE", "WEI", "HUI", "MIN", "JIN", "SUNG", "HYUN", "RAJESH", "PRIYA", "SANJAY",
  "AMIT", "GIUSEPPE", "GIOVANNI", "ANTONIO", "FRANCESCO", "MARCO", "DIMITRIOS", "NIKOS", "GEORGIOS",
  "YUSUF", "AHMED", "OMAR", "FATIMA", "KWAME", "AISHA", "OLGA", "IVAN", "SERGEI", "TATIANA", "RENÉ",
];

/** Short forms used in possessive names: `JOE'S BAR & GRILL`, and initials as owners write them: `P J'S PUB`. */
// prettier-ignore
export const NICKNAMES = [
  "JOE", "TONY", "SAL", "MIKE", "JIMMY", "EDDIE", "FRANKIE", "BOBBY", "DANNY", "CHARLIE", "MAGGIE",
  "ROSIE", "SALLY", "LUCY", "MOLLY", "NICK", "PETE", "GUS", "MAX", "BILLY", "JACK", "RITA", "DOT",
  "P J", "R J", "T J",
];

// prettier-ignore
export const SURNAMES = [
  "SMITH", "JOHNSON", "WILLIAMS", "BROWN", "JONES", "GARCIA", "MILLER", "DAVIS", "RODRIGUEZ", "MARTINEZ",
  "HERNANDEZ", "LOPEZ", "GONZALEZ", "WILSON", "ANDERSON", "THOMAS", "TAYLOR", "MOORE", "JACKSON", "MARTIN",
  "LEE", "PEREZ", "THOMPSON", "WHITE", "HARRIS", "SANCHEZ", "CLARK", "RAMIREZ", "LEWIS", "ROBINSON",
  "WALKER", "YOUNG", "ALLEN", "KING", "WRIGHT", "SCOTT", "TORRES", "NGUYEN", "HILL", "FLORES", "GREEN",
  "ADAMS", "BAKER", "HALL", "RIVERA", "CAMPBELL", "MITCHELL", "CARTER", "O'BRIEN", "O'MALLEY", "O'CONNOR",
  "O'NEILL", "MCCARTHY", "MURPHY", "KELLY", "SULLIVAN", "FITZGERALD", "D'AMICO", "D'ANGELO", "RUSSO",
  "ESPOSITO", "ROMANO", "COLOMBO", "RICCI", "BIANCHI", "KIM", "PARK", "CHOI", "CHEN", "WANG", "LIU",
  "ZHANG", "PATEL", "SHAH", "SINGH", "GUPTA", "COHEN", "LEVY", "GOLDBERG", "KOWALSKI", "NOWAK",
  "PAPADOPOULOS", "IVANOV", "MÜLLER", "NÚÑEZ", "PEÑA", "OKAFOR", "MENSAH", "HAUGEN", "LINDQVIST",
];

// prettier-ignore
export const ADJECTIVES = [
  "GOLDEN", "DEAD", "RUSTY", "BLACK", "RED", "BLUE", "SILVER", "OLD", "IRON", "WHITE", "GREEN",
  "CROOKED", "LUCKY", "DRUNKEN", "HAPPY", "JOLLY", "WILD", "LONELY", "FLYING", "BRASS", "COPPER", "ROYAL",
  "SLEEPY", "SMILING", "HIDDEN", "LAUGHING", "SALTY", "DIRTY", "THIRSTY", "BROKEN", "TIPSY", "VELVET",
  "STONE", "HOLLOW", "NORTHERN", "SOUTHERN", "MIDNIGHT", "SPOTTED", "SPECKLED", "WOODEN", "HUNGRY",
];

// prettier-ignore
export const NOUNS = [
  "RABBIT", "LION", "FOX", "HORSE", "DOG", "CROW", "RAVEN", "OWL", "STAG", "BEAR", "BULL", "GOAT", "PIG",
  "DUCK", "GOOSE", "SWAN", "ANCHOR", "CROWN", "BARREL", "LANTERN", "KETTLE", "COMPASS", "HARP", "SHAMROCK",
  "THISTLE", "ROSE", "OAK", "MOOSE", "WHALE", "MERMAID", "MONK", "PILGRIM", "SAILOR", "PIRATE", "FIDDLER",
  "PIPER", "HORSESHOE", "SADDLE", "PENNY", "SPOKE", "MULE", "HERON", "PELICAN", "TORTOISE", "BADGER",
  "WREN", "MAGPIE", "PHEASANT", "QUAIL", "COYOTE", "ARMADILLO", "LOBSTER", "OYSTER", "CLOVER", "ACORN",
];

// prettier-ignore
export const BAR_WORDS = [
  "TAVERN", "TAVERN", "TAVERN", "PUB", "PUB", "PUB", "SALOON", "BAR & GRILL", "BAR & GRILL", "ALE HOUSE",
  "TAPROOM", "LOUNGE", "BAR", "BAR", "INN", "PUBLIC HOUSE", "BEER GARDEN", "COCKTAIL BAR", "SPORTS BAR",
  "WINE BAR", "WINE BAR", "ICE HOUSE", "SPEAKEASY",
];

// prettier-ignore
export const RESTAURANT_WORDS = [
  "RESTAURANT", "RESTAURANT", "GRILL", "KITCHEN", "KITCHEN", "BISTRO", "STEAKHOUSE", "CHOPHOUSE", "DINER",
  "OYSTER BAR", "PIZZERIA", "TAVERN & GRILL", "CAFE", "EATERY", "SUSHI", "NOODLE HOUSE", "SMOKEHOUSE",
  "TAQUERIA", "WINE & TAPAS", "TRATTORIA",
];

/**
 * Restaurant names in the owners' own languages, kept within one language each
 * (`CAFÉ ROYALE`, never `TAQUERÍA ROMA`); the accented ones keep exports honest.
 */
export const FOREIGN_RESTAURANTS: readonly { openers: readonly string[]; names: readonly string[] }[] = [
  {
    openers: ["CAFÉ", "CAFÉ", "BRASSERIE", "BISTRO", "LE", "CHEZ"],
    names: ["ROYALE", "ÉTOILE", "MARGAUX", "LYON", "PROVENCE", "MONTMARTRE", "DU PARC", "BELLE ÉPOQUE", "JULIEN"],
  },
  {
    openers: ["TRATTORIA", "OSTERIA", "CAFFÈ", "RISTORANTE", "ENOTECA"],
    names: ["SAN MARCO", "NAPOLI", "ROMA", "SORRENTO", "AMALFI", "TOSCANA", "BELLA VISTA", "LUNA", "DA VINCI"],
  },
  {
    openers: ["TAQUERÍA", "CANTINA", "CASA", "RESTAURANTE", "EL RINCÓN DE"],
    names: ["EL SOL", "DORADO", "OAXACA", "JALISCO", "CORAZÓN", "DEL MAR", "PALOMA", "AZUL", "SEVILLA", "LA PIÑATA"],
  },
];

// prettier-ignore
export const STORE_WORDS = [
  "WINE & SPIRITS", "WINE & SPIRITS", "WINE & SPIRITS", "WINES & LIQUORS", "LIQUORS", "LIQUORS",
  "LIQUOR STORE", "WINE SHOP", "FINE WINES", "BEVERAGE CENTER", "LIQUOR MART", "WINE & LIQUOR",
  "PACKAGE STORE", "BOTTLE SHOP", "DISCOUNT LIQUORS",
];

// prettier-ignore
export const GROCERY_WORDS = [
  "DELI", "DELI & GROCERY", "DELI & GROCERY", "MINI MARKET", "FOOD MART", "GROCERY", "SUPERMARKET",
  "MARKET", "CONVENIENCE", "BODEGA", "FARMS MARKET", "GOURMET",
];
export const CHAIN_STORES = ["QUIK STOP", "EZ MART", "SUNRISE FOOD MART", "CORNER STORE", "FUEL & GO", "VALU MART"];

// prettier-ignore
export const CLUB_NAMES = [
  "AMERICAN LEGION POST", "VFW POST", "ELKS LODGE #", "KNIGHTS OF COLUMBUS COUNCIL", "SONS OF ITALY LODGE",
  "MOOSE LODGE #", "ANCIENT ORDER OF HIBERNIANS DIV", "POLISH AMERICAN CITIZENS CLUB #", "FRATERNAL ORDER OF EAGLES AERIE",
];
export const CLUB_WORDS = ["YACHT CLUB", "COUNTRY CLUB", "ATHLETIC CLUB", "GOLF CLUB", "BOAT CLUB", "SOCIAL CLUB"];

export const HOTEL_WORDS = ["HOTEL", "HOTEL", "INN", "SUITES", "GRAND HOTEL", "INN & SUITES", "LODGE", "RESORT"];

export const MAKER_WORDS = [
  "BREWING CO",
  "BREWERY",
  "WINERY",
  "VINEYARDS",
  "CELLARS",
  "DISTILLING CO",
  "CIDERWORKS",
  "MEADERY",
];

export const COMPANY_ENDINGS = ["LLC", "LLC", "LLC", "INC", "INC", "CORP", "CORPORATION", "LTD", "LP"];
export const COMPANY_MIDDLES = [
  "GROUP",
  "HOSPITALITY",
  "HOLDINGS",
  "ENTERPRISES",
  "MANAGEMENT",
  "VENTURES",
  "RESTAURANT GROUP",
  "PARTNERS",
];
