import { z } from "zod/mini";
import { StateCodeSchema } from "./states.ts";

/** `YYYY-MM-DD` */
export const IsoDateSchema = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, "a date as YYYY-MM-DD"));

/** `YYYY-MM-DD HH:MM:SS.ffffff` */
export const UpdatedAtSchema = z
  .string()
  .check(z.regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/, "a timestamp as YYYY-MM-DD HH:MM:SS.ffffff"));

export const AddressSchema = z.object({
  line_1: z.string(),
  // The spec leaves nullability open; our answer is null when there is no second line.
  line_2: z.nullable(z.string()),
  city: z.string(),
  county: z.string(),
  state: z.string().check(z.regex(/^[A-Z]{2}$/, "a two-letter upper-case state code")),
  zip: z.string(),
});

/**
 * The spec shows every date but `issued_latest` as a date. Our answer where a state's export does
 * not publish one (Massachusetts gives no effective date, New Jersey no original issue date, a
 * pending application no expiry): null, never an invented date. Clients of services that always
 * send dates lose nothing by accepting null.
 */
export const LicenseDatesSchema = z.object({
  effective: z.nullable(IsoDateSchema),
  expires: z.nullable(IsoDateSchema),
  issued_original: z.nullable(IsoDateSchema),
  issued_latest: z.nullable(IsoDateSchema),
});

export const DetailsSchema = z.object({
  class: z.nullable(z.string()),
  description: z.nullable(z.string()),
  type: z.string(),
});

export const LicenseSchema = z
  .object({
    object: z.literal("license"),
    license: z.string().check(z.minLength(1)),
    business: z.string(),
    owner: z.string(),
    phone: z.nullable(z.string()),
    state: StateCodeSchema,
    status: z.string(),
    updated_at: UpdatedAtSchema,
    address: AddressSchema,
    dates: z.record(StateCodeSchema, LicenseDatesSchema),
    details: DetailsSchema,
  })
  .check(
    z.refine((l) => Object.keys(l.dates).length === 1 && l.state in l.dates, {
      message: "dates must be keyed by the license's own state",
      path: ["dates"],
    }),
  );

export type License = z.infer<typeof LicenseSchema>;
export type Address = z.infer<typeof AddressSchema>;
export type LicenseDates = z.infer<typeof LicenseDatesSchema>;

/** The dates of a license, under its own state's key. */
export function licenseDates(license: License): LicenseDates {
  return license.dates[license.state]!;
}
