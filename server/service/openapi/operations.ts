import { z } from "zod/mini";
import { MAX_BATCH, MAX_RESULTS } from "../../../src/contract/envelopes.ts";
import { LicenseSchema } from "../../../src/contract/license.ts";
import { LicenseListQuerySchema } from "../../../src/contract/license-list-query.ts";
import { MAX_TERM_LENGTH, SearchParamsSchema } from "../../../src/contract/search-query.ts";
import type { ProblemKind } from "../../http/problem.ts";
import { STATE_UNAVAILABLE } from "../state-access.ts";
import type { ComponentName } from "./components.ts";

export interface ParameterSet {
  in: "query" | "path";
  /** A zod object whose input shape gives one parameter per property, required as the schema says. */
  schema: z.core.$ZodType;
  /** One per property, no more, no less: the document's build checks. */
  descriptions: Record<string, string>;
}

export interface OperationDoc {
  /** As OpenAPI writes it, parameters in braces. */
  path: `/v2/${string}`;
  operationId: string;
  /** The contract's own operations, or ours beyond it. */
  tag: "contract" | "addition";
  summary: string;
  description: string;
  parameters: ParameterSet[];
  /** The 200 body: a schema named in components.ts. */
  answer: ComponentName;
  /**
   * The problems this route answers with, and when, besides those every keyed route can give
   * (401, 429, 500): the document adds those itself.
   */
  problems: Partial<Record<ProblemKind, string>>;
}

const STATE_PATH: ParameterSet = {
  in: "path",
  schema: z.object({ state: z.string() }),
  descriptions: { state: "Two-letter state code, any case, of a state this key can read." },
};

/** Our additions about one license: the number as `/v2/license` matches it. */
const LICENSE_PATH: ParameterSet = {
  in: "path",
  schema: z.object({ state: z.string(), license: LicenseSchema.shape.license }),
  descriptions: {
    state: "Two-letter state code, any case, of a state this key can read.",
    license: "The license number, matched exactly as on `/v2/license`; percent-encoded.",
  },
};

const LICENSE_LIST: ParameterSet = {
  in: "query",
  schema: LicenseListQuerySchema,
  descriptions: {
    license: `A license number, matched exactly as on \`/v2/license\` (leading zeros count); repeat the parameter for each number, 1 to ${MAX_BATCH}: \`?license=0012345&license=AB%2F12%20%233\`. Percent-encoded (a \`+\` in a number as \`%2B\`: a bare \`+\` is a space); an empty or blank one is a 400.`,
  },
};

const LICENSE_LIST_REFUSED = `No \`license\`; more than ${MAX_BATCH}; an empty or blank one. The detail says which.`;

const SEARCH_QUERY: ParameterSet = {
  in: "query",
  schema: SearchParamsSchema,
  descriptions: {
    state: "Two-letter state code, any case, of a state this key can read (see `/v2/states`).",
    name: `Part of a business or owner name. Give exactly one of \`name\` and \`address\`: both or neither is a 400. Trimmed (an empty term counts as absent); at most ${MAX_TERM_LENGTH} characters, no control characters.`,
    address: `Part of address line 1. Give exactly one of \`name\` and \`address\`. Trimmed; at most ${MAX_TERM_LENGTH} characters, no control characters.`,
  },
};

const SEARCH_REFUSED =
  "No `state`; both `name` and `address`, or neither; a term too long or holding control characters; a parameter given more than once.";

const STATE_UNAVAILABLE_WHEN = `The state is unsupported or outside the key's scope: the same answer either way ("${STATE_UNAVAILABLE}").`;

/**
 * Every route of the v2 service as the OpenAPI document describes it, one entry per route, GET
 * (and HEAD) only. A new route adds its entry here; the document test fails until it does, and
 * until a real answer of each status listed here has been checked against it.
 */
export const OPERATIONS: OperationDoc[] = [
  {
    path: "/v2/search",
    operationId: "searchLicenses",
    tag: "contract",
    summary: "Search a state's licenses by name or by address",
    description: `Matching ignores case, accents, punctuation and apostrophes; every word typed must occur, and partial words match. A name search looks at the business and the owner, an address search at address line 1. At most ${MAX_RESULTS} licenses, best match first, the same order every time; no pagination.`,
    parameters: [SEARCH_QUERY],
    answer: "SearchResponse",
    problems: {
      "bad-request": SEARCH_REFUSED,
      "state-unavailable": STATE_UNAVAILABLE_WHEN,
    },
  },
  {
    path: "/v2/search-with-provenance",
    operationId: "searchLicensesWithProvenance",
    tag: "addition",
    summary: "Search, with where each license found comes from",
    description: `The search \`/v2/search\` makes, with the same parameters, the same licenses in the same order, and beside them where each comes from as \`/v2/provenance/{state}/{license}\` gives it (null where the service has no source for it): a client that shows results with their source and date needs one round trip, not two. Counts once against the rate limit.`,
    parameters: [SEARCH_QUERY],
    answer: "SearchWithProvenanceResponse",
    problems: { "bad-request": SEARCH_REFUSED, "state-unavailable": STATE_UNAVAILABLE_WHEN },
  },
  {
    path: "/v2/license/{state}/{license}",
    operationId: "getLicense",
    tag: "contract",
    summary: "Get one license by its exact number",
    description:
      'The license with exactly this number in this state, or `{ "data": null }` with status 200 when there is none.',
    parameters: [
      {
        in: "path",
        schema: z.object({ state: z.string(), license: LicenseSchema.shape.license }),
        descriptions: {
          state: "Two-letter state code, any case, of a state this key can read.",
          license:
            "The license number, matched exactly: leading zeros count. A number holding `/`, spaces or `#` is sent percent-encoded.",
        },
      },
    ],
    answer: "LicenseResponse",
    problems: {
      "bad-request": "The path's percent-encoding is broken.",
      "state-unavailable": STATE_UNAVAILABLE_WHEN,
    },
  },
  {
    path: "/v2/provenance/{state}/{license}",
    operationId: "getProvenance",
    tag: "addition",
    summary: "Where one license comes from, and its date",
    description:
      'The source whose word the license with exactly this number is (the agency, the dataset, the file and its SHA-256, what it covers) and the date that source gives for it, or `{ "data": null }` when there is no such license. The license object itself stays the contract\'s.',
    parameters: [LICENSE_PATH],
    answer: "ProvenanceResponse",
    problems: {
      "bad-request": "The path's percent-encoding is broken.",
      "state-unavailable": STATE_UNAVAILABLE_WHEN,
    },
  },
  {
    path: "/v2/history/{state}/{license}",
    operationId: "getLicenseHistory",
    tag: "addition",
    summary: "What the state's files have said of one license over time",
    description:
      'Every change the state\'s files show for the license with exactly this number, newest first: each with its date, its source and what changed (from, to); "first seen" and "no longer listed" too. A license no longer listed has a history though `/v2/license` has no record of it. `{ "data": null }` when no source of the state ever named the number.',
    parameters: [LICENSE_PATH],
    answer: "LicenseHistoryResponse",
    problems: {
      "bad-request": "The path's percent-encoding is broken.",
      "state-unavailable": STATE_UNAVAILABLE_WHEN,
    },
  },
  {
    path: "/v2/licenses/{state}",
    operationId: "getLicenseList",
    tag: "addition",
    summary: `Get up to ${MAX_BATCH} licenses by their exact numbers`,
    description: `For checking a list: each number's license as \`/v2/license\` gives it, in one request that counts once against the rate limit. \`data\` holds one entry per \`license\` in the order given (a number given twice is answered twice), null for a number the state does not hold; status 200 either way. A longer list goes in parts of ${MAX_BATCH}.`,
    parameters: [STATE_PATH, LICENSE_LIST],
    answer: "LicenseListResponse",
    problems: { "bad-request": LICENSE_LIST_REFUSED, "state-unavailable": STATE_UNAVAILABLE_WHEN },
  },
  {
    path: "/v2/provenance/{state}",
    operationId: "getProvenanceList",
    tag: "addition",
    summary: `Where up to ${MAX_BATCH} licenses come from, and their dates`,
    description: `Each number's provenance as \`/v2/provenance/{state}/{license}\` gives it, in one request that counts once against the rate limit: one entry per \`license\` in the order given, null for a number the state does not hold.`,
    parameters: [STATE_PATH, LICENSE_LIST],
    answer: "ProvenanceListResponse",
    problems: { "bad-request": LICENSE_LIST_REFUSED, "state-unavailable": STATE_UNAVAILABLE_WHEN },
  },
  {
    path: "/v2/states",
    operationId: "listStates",
    tag: "addition",
    summary: "List the states this key can read",
    description: "Each state the key covers and the service holds data for, with what backs it.",
    parameters: [],
    answer: "StatesResponse",
    problems: {},
  },
];
