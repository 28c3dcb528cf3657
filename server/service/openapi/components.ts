import type { z } from "zod/mini";
import {
  FieldSourceSchema,
  HistoryChangeSchema,
  HistoryEntrySchema,
  LicenseHistoryResponseSchema,
  LicenseHistorySchema,
  LicenseListResponseSchema,
  ListingSchema,
  LicenseResponseSchema,
  MAX_BATCH,
  ProvenanceListResponseSchema,
  ProvenanceResponseSchema,
  ProvenanceSchema,
  SearchResponseSchema,
  SearchWithProvenanceResponseSchema,
  SourceSchema,
  StateCoverageSchema,
  StatesResponseSchema,
} from "../../../src/contract/envelopes.ts";
import { AddressSchema, DetailsSchema, LicenseDatesSchema, LicenseSchema } from "../../../src/contract/license.ts";
import { ProblemSchema } from "../../../src/contract/problem.ts";

/** JSON Schema keywords laid over one generated property: a description, or what zod cannot say. */
export type FieldNotes = Record<string, string | Record<string, unknown>>;

export interface Component {
  schema: z.core.$ZodType;
  description: string;
  /** Checked against the generated schema: a note on a field the contract no longer has fails the build. */
  fields?: FieldNotes;
  /** Shown by the docs page instead of made-up values; parsed by the schema when the document is built. */
  example?: unknown;
}

const SOURCE_EXAMPLE = {
  id: 1,
  agency: "New York State Liquor Authority",
  title: "Liquor Authority Quarterly List of Active Licenses",
  coverage: "New York City on-premises liquor licenses only (NEW YORK, KINGS, QUEENS, BRONX, RICHMOND counties)",
  file: "nyc_bars.csv",
  sha256: "6c0b1d3e1f0a9c8b7a6f5e4d3c2b1a09f8e7d6c5b4a392817263544536271809",
  as_of: "2016-01-14",
  as_of_from: "the newest date in the file",
  loaded_at: "2026-11-22 10:00:00.000000",
  records: 6655,
};

/**
 * The contract's schemas that the document names under components/schemas. The shapes come from
 * src/contract; only the words are written here. A route whose answer is a new envelope adds it.
 */
export const COMPONENTS = {
  License: {
    schema: LicenseSchema,
    description: "A liquor license or permit as a state authority publishes it: the same object in every answer.",
    fields: {
      object: "Always `license`.",
      license: "The number the authority issued. Leading zeros count: `0012345` is not `12345`.",
      business: "Business name.",
      owner: "Owner name.",
      phone: "Null when the state does not publish one.",
      state: "Two-letter state code, lower case.",
      status: "The status as the state words it (`active` is the common one).",
      updated_at: "When the record was loaded, UTC, as `YYYY-MM-DD HH:MM:SS.ffffff`.",
      // The contract's refine (the one key is the license's own state) is a function zod cannot
      // turn into JSON Schema: its countable half is stated here, the rest in words.
      dates: {
        description:
          "Exactly one key, the license's own `state` (JSON Schema cannot say that a key must equal another field; the service never answers otherwise).",
        minProperties: 1,
        maxProperties: 1,
      },
    },
    example: {
      object: "license",
      license: "0012345",
      business: "DEAD RABBIT TAVERN",
      owner: "DRT GROUP LLC",
      phone: "(212) 555-0100",
      state: "ny",
      status: "active",
      updated_at: "2026-01-15 09:30:00.000000",
      address: {
        line_1: "30 WATER ST",
        line_2: null,
        city: "NEW YORK",
        county: "NEW YORK",
        state: "NY",
        zip: "10004",
      },
      dates: {
        ny: { effective: "2025-03-01", expires: "2027-02-28", issued_original: "2013-02-20", issued_latest: null },
      },
      details: { class: "252", description: "ON-PREMISES LIQUOR", type: "OP" },
    },
  },
  Address: {
    schema: AddressSchema,
    description: "Where the licensed premises are.",
    fields: {
      line_1: "Address line 1: what an `address` search matches.",
      line_2: "A second line, often a building name; null when there is none.",
      state: "Two-letter state code, upper case.",
    },
  },
  LicenseDates: {
    schema: LicenseDatesSchema,
    description:
      "Dates as `YYYY-MM-DD`. Null where the state's export does not publish one (Massachusetts gives no effective date, New Jersey no original issue date, a pending application no expiry): the service never invents a date.",
    fields: {
      effective: "Effective date.",
      expires: "Expiration date.",
      issued_original: "Date first issued.",
      issued_latest: "Date latest issued.",
    },
  },
  Details: {
    schema: DetailsSchema,
    description: "The license's class and type as the state codes them.",
    fields: {
      class: "License class; null when the state does not publish one.",
      description: "What the license allows, in the state's words; null when not published.",
      type: "License type code.",
    },
  },
  Source: {
    schema: SourceSchema,
    description:
      "One source of a state's records: a file a state agency published, as it was loaded. Each record the service serves is one source's word, with that source's date.",
    fields: {
      id: "The source's number in this service: a provenance answer names it.",
      agency: "The agency, as people say its name.",
      title: "The dataset's title.",
      coverage: "What the source covers, in plain words; what is not in it is not in the service's data either.",
      file: "The file's name; null for generated demo data.",
      sha256: "The file's SHA-256, to tell it from another file of the same name.",
      as_of: "The date the source says its data was current on; null when unknown.",
      as_of_from:
        "How that date is known: stated in the file, the file's name, the first day of the month the file states (a list dated by its month alone), given at import, the newest date in the file, or the day the file was published (a file that states no date: its data is no newer).",
      loaded_at: "When the source was loaded into this service, UTC.",
      records: "How many of the state's served licenses are this source's word.",
    },
    example: SOURCE_EXAMPLE,
  },
  StateCoverage: {
    schema: StateCoverageSchema,
    description: "A state this key can read, and what backs it.",
    fields: {
      state: "Two-letter state code, lower case: the `state` to search with.",
      name: "The state's name.",
      records: "How many licenses the service holds for the state.",
      sources: "The sources behind the state's licenses, oldest loaded first, each with its own date and coverage.",
      kind: "What backs the state, as its sources' coverage words tell: `statewide_roster`; `part_of_state` (a county's or a city's list); `not_a_roster` (tax filings, notices, what changed between two dates), where a license missing may still be licensed. Absent where the words do not tell.",
    },
    example: { state: "ny", name: "New York", records: 8331, sources: [SOURCE_EXAMPLE] },
  },
  Provenance: {
    schema: ProvenanceSchema,
    description:
      "Where one served license comes from: the source whose word it is, and the date that source gives for it.",
    fields: {
      state: "Two-letter state code, lower case.",
      license: "The license number, as on the license.",
      as_of: "The date the record was true on, by its source: for a daily report, the report's day.",
      source: "The source, as `/v2/states` lists it.",
      fields:
        "Each field an older source gives, where `source` has no column for it (New York's 2019 extract gives no address: the 2016 list's stands). Absent where every field is `source`'s.",
    },
  },
  FieldSource: {
    schema: FieldSourceSchema,
    description:
      "A field of a license an older source gives, because the license's own source (the newest) does not give that field at all.",
    fields: {
      field:
        "The field, as the license names it: `address` is the whole address, county included; `type`, `class` and `description` are the details; a date by its name.",
      as_of: "The date that older source says the field was true on.",
      source: "The older source, as `/v2/states` lists it.",
    },
  },
  HistoryChange: {
    schema: HistoryChangeSchema,
    description: "One field of a license changing, as its source shows it.",
    fields: {
      field: "Which field: a date's name (`expires`) for a date, `type` and `class` for the details.",
      license_type:
        "The license type it concerns, where the state follows each type of a license apart (California's `47`); null when it concerns the license.",
      from: "The value before, as the source wrote it (an address in one line); null where nothing was known before.",
      to: "The value after; null where the license is no longer listed (`from` is then what it was last listed as).",
    },
  },
  HistoryEntry: {
    schema: HistoryEntrySchema,
    description:
      "Something a source shows happening to a license: first seen, changed, no longer listed, listed again. A field a source does not give is never a change.",
    fields: {
      event:
        "`first_seen` (the first source naming the license: a list's holds no changes, since what it was first listed as is the record less the changes after; a daily report's holds the change it reported), `changed`, `no_longer_listed` (a complete list no longer names it; its changes say what it was last listed as, each `to` null; a source of changes only never says this), `listed_again`.",
      date: "The date its source says it was true on: a daily report's day, a list's as-of date.",
      since:
        "For a list: the date of the list before it, so the change happened between `since` and `date`. Null when the source dates the change itself (a daily report) or there is no earlier list.",
      source: "The source that shows it: its `id` among the history's `sources`.",
      changes: "What changed.",
    },
  },
  Listing: {
    schema: ListingSchema,
    description: "An unbroken run of one series of lists naming the license: two runs mean a gap between them.",
    fields: {
      from: "The as-of date of the run's first list.",
      to: "The as-of date of its last list.",
      lists: "How many lists the run spans, every one naming the license.",
      first_source: "The run's first list, by source id.",
      last_source: "Its last list, by source id.",
    },
  },
  LicenseHistory: {
    schema: LicenseHistorySchema,
    description:
      "What a state's sources have said of one license over time, those no longer listed included: every change with its date and source.",
    fields: {
      state: "Two-letter state code, lower case.",
      license: "The license number, exactly as asked.",
      entries: "Newest first.",
      listings:
        "The runs of complete lists naming the license, oldest first; empty where no source is a complete list.",
      sources: "Every source an entry or a listing names, as `/v2/states` lists it.",
    },
  },
  Problem: {
    schema: ProblemSchema,
    description: "An error (RFC 9457 problem details), sent as `application/problem+json`.",
    fields: {
      type: "A stable identifier to switch on: `urn:license-lookup:problem:` and the kind of problem.",
      title: "A short summary of the kind of problem.",
      status: "The HTTP status, repeated.",
      detail: "What went wrong, in words a person can act on.",
      request_id: "The answer's `x-request-id`: quote it when reporting a problem.",
    },
  },
  SearchResponse: { schema: SearchResponseSchema, description: "Up to 10 licenses, best match first." },
  SearchWithProvenanceResponse: {
    schema: SearchWithProvenanceResponseSchema,
    description:
      "`licenses`: up to 10 licenses, best match first, as `/v2/search` gives them; `provenance`: one entry per license, in the same order, where it comes from, or null where the service has no source for it.",
  },
  LicenseResponse: { schema: LicenseResponseSchema, description: "The license, or null when none has that number." },
  StatesResponse: {
    schema: StatesResponseSchema,
    description: "The states this key can read.",
    fields: {
      snapshot:
        "Where the service runs as several nodes: the snapshot of the data this node serves (its SHA-256 and when it was published), the same one each answer's `x-lls-snapshot` names by its first 12 hex digits; null while the node serves a local file. Absent on a single node.",
    },
  },
  ProvenanceResponse: {
    schema: ProvenanceResponseSchema,
    description: "Where the license comes from, or null when none has that number.",
  },
  LicenseHistoryResponse: {
    schema: LicenseHistoryResponseSchema,
    description: "The license's history, or null when no source of the state ever named that number.",
  },
  LicenseListResponse: {
    schema: LicenseListResponseSchema,
    description: `One entry per \`license\` asked (at most ${MAX_BATCH}), in the order asked: the license, or null when none has that number.`,
  },
  ProvenanceListResponse: {
    schema: ProvenanceListResponseSchema,
    description: `One entry per \`license\` asked (at most ${MAX_BATCH}), in the order asked: where it comes from, or null when none has that number.`,
  },
} satisfies Record<string, Component>;

export type ComponentName = keyof typeof COMPONENTS;
