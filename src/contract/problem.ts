import { z } from "zod/mini";

/** RFC 9457 problem details: the body of every error the service returns. */
export const ProblemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().check(z.int()),
  detail: z.string(),
  instance: z.optional(z.string()),
  request_id: z.optional(z.string()),
});

export type Problem = z.infer<typeof ProblemSchema>;

export const PROBLEM_CONTENT_TYPE = "application/problem+json";
