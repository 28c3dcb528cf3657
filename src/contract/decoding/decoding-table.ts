import { z } from "zod/mini";
import { StateCodeSchema } from "../states.ts";

/** What a state's status means for whether the license may be used today. */
export const STATUS_CATEGORIES = ["in force", "not in force", "pending", "unknown"] as const;
export type StatusCategory = (typeof STATUS_CATEGORIES)[number];

const SourceSchema = z.object({
  title: z.string(),
  url: z.optional(z.string()),
  /** How the entries were taken from it, and how far it can be trusted. */
  note: z.string(),
});

const StatusEntrySchema = z.object({
  /** The status as the agency writes it and as our service serves it; matched ignoring case. */
  values: z.array(z.string().check(z.minLength(1))).check(z.minLength(1)),
  /**
   * "unknown" is what a status missing from the table decodes to; as an entry's category, a record
   * that says nothing of the license's standing (a tax filing), whose words say why and whom to ask.
   */
  category: z.enum(STATUS_CATEGORIES),
  /** The state's own meaning, in plain words. */
  words: z.string(),
  source: z.string(),
});

/** How the state writes every license number, so that a number written otherwise can be offered in its form. */
const NumberFormatSchema = z.object({
  /** `9` a digit, `A` a letter, any other character as written: `99999-AA-9999`. */
  format: z.string().check(z.regex(/[9A]/)),
  example: z.string(),
  source: z.string(),
});

const CodeTableSchema = z.object({
  source: z.string(),
  names: z.record(z.string(), z.string()),
});

/**
 * One state's decoding: its status words and its license type and class codes, each with the
 * source it was taken from. Served to no client as license fields: the license stays the contract's.
 */
export const DecodingTableSchema = z
  .object({
    state: StateCodeSchema,
    agency: z.string(),
    /** The agency's own public lookup: where "not in our data" sends a clerk. */
    lookup: z.object({ title: z.string(), url: z.string().check(z.startsWith("https://")) }),
    /** Absent for a state whose numbers have no fixed form (California's run from 3 to 6 digits). */
    number: z.optional(NumberFormatSchema),
    sources: z.record(z.string(), SourceSchema),
    statuses: z.array(StatusEntrySchema),
    codes: z.object({ type: z.optional(CodeTableSchema), class: z.optional(CodeTableSchema) }),
  })
  .check(
    z.refine(
      (t) =>
        [...t.statuses, ...Object.values(t.codes), t.number]
          .filter((entry) => entry !== undefined)
          .every((entry) => entry.source in t.sources),
      { message: "every entry names one of the table's sources" },
    ),
    z.refine(
      (t) => {
        const values = t.statuses.flatMap((s) => s.values.map((v) => v.toLowerCase()));
        return new Set(values).size === values.length;
      },
      { message: "a status value is listed once" },
    ),
  );

export type DecodingTable = z.infer<typeof DecodingTableSchema>;
export type CodeKind = "type" | "class";
