import type {
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  ResponseObject,
  ResponsesObject,
  SchemaObject,
} from "openapi3-ts/oas31";
import { z } from "zod/mini";
import { PROBLEM_CONTENT_TYPE } from "../../../src/contract/problem.ts";
import { PROBLEMS, problemType, type ProblemKind } from "../../http/problem.ts";
import { DEFAULT_RATE_LIMIT } from "../rate-limit.ts";
import { COMPONENTS, type Component, type FieldNotes } from "./components.ts";
import { OPERATIONS, type OperationDoc, type ParameterSet } from "./operations.ts";

const { perSecond, burst } = DEFAULT_RATE_LIMIT;

const TAGS = { contract: "Contract", addition: "Additions" } as const;

/** Answers every keyed operation can give, whatever its parameters. */
const KEYED_ANSWERS: ResponsesObject = {
  401: { $ref: "#/components/responses/Unauthorized" },
  429: { $ref: "#/components/responses/TooManyRequests" },
  500: { $ref: "#/components/responses/ServerError" },
};

const DESCRIPTION = `Liquor-license records drawn from state government databases. Read-only: every route answers GET (and HEAD, without a body).

Every request carries \`Authorization: Bearer <key>\`; a key reads the states it was made for. Every answer carries \`x-request-id\`; where the service runs as several nodes, also \`x-lls-snapshot\`: the first 12 hex digits of the SHA-256 of the published data snapshot it was read from (\`/v2/states\` gives it whole as \`snapshot\`). Success bodies are \`{ "data": ... }\`; errors are \`${PROBLEM_CONTENT_TYPE}\` (the Problem schema).

Besides what each route lists, on any path under \`/v2\`:

| status | when |
| --- | --- |
| 401 | the key is missing, malformed, unknown or revoked: checked before anything else |
| 404 | no such path (\`components/responses/NotFound\`) |
| 405 | a method other than GET or HEAD on a path that exists, with \`Allow: GET, HEAD\` (\`components/responses/MethodNotAllowed\`) |
| 429 | past the key's rate limit (by default ${perSecond} requests a second, in bursts of ${burst}), with \`Retry-After\` |

This document (\`/v2/openapi.json\`) and the docs page (\`/v2/docs\`) need no key.`;

/**
 * The OpenAPI 3.1 document of the v2 service, made from the contract's zod schemas and the route
 * list in operations.ts. Built once per app; pure, so a test can build the same one.
 */
export function buildOpenApiDocument(): OpenAPIObject {
  return {
    openapi: "3.1.0",
    info: { title: "License Lookup v2", version: "2", description: DESCRIPTION },
    tags: [
      { name: TAGS.contract, description: "The two operations of the v2 contract." },
      { name: TAGS.addition, description: "Ours, beyond the contract: other v2 services may not have them." },
    ],
    security: [{ apiKey: [] }],
    paths: Object.fromEntries(OPERATIONS.map((op) => [op.path, { get: operation(op) }])),
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          description: "An API key, made with `npm run keys -- create`; it reads only the states it was made for.",
        },
      },
      headers: {
        RequestId: {
          description: "A fresh id for this request: the same as the problem's `request_id`.",
          required: true,
          schema: { type: "string" },
        },
        WWWAuthenticate: { description: "The scheme to use: `Bearer`.", required: true, schema: { type: "string" } },
        Allow: {
          description: "The methods this path answers: `GET, HEAD`.",
          required: true,
          schema: { type: "string" },
        },
        RetryAfter: { description: "Seconds until the key may ask again.", required: true, schema: { type: "string" } },
      },
      responses: {
        Unauthorized: problemAnswer(["unauthorized"], "The API key is missing, malformed, unknown or revoked.", {
          "WWW-Authenticate": { $ref: "#/components/headers/WWWAuthenticate" },
        }),
        TooManyRequests: problemAnswer(["rate-limited"], "This key has made too many requests in a short time.", {
          "Retry-After": { $ref: "#/components/headers/RetryAfter" },
          "x-ratelimit-limit": { description: "Requests allowed per window.", schema: { type: "string" } },
          "x-ratelimit-remaining": { description: "Requests left in this window: 0.", schema: { type: "string" } },
          "x-ratelimit-reset": { description: "Seconds until the window resets.", schema: { type: "string" } },
        }),
        ServerError: problemAnswer(
          ["server-error"],
          "Something failed on the service's side; the detail names the request id.",
        ),
        NotFound: problemAnswer(["not-found"], "No route has this path."),
        MethodNotAllowed: problemAnswer(["method-not-allowed"], "The path exists, but answers only GET and HEAD.", {
          Allow: { $ref: "#/components/headers/Allow" },
        }),
      },
    },
  };
}

function operation(op: OperationDoc): OperationObject {
  const byStatus = new Map<number, ProblemKind[]>();
  for (const kind of Object.keys(op.problems) as ProblemKind[]) {
    const { status } = PROBLEMS[kind];
    byStatus.set(status, [...(byStatus.get(status) ?? []), kind]);
  }
  const problems: ResponsesObject = {};
  for (const [status, kinds] of byStatus) {
    problems[status] = problemAnswer(kinds, kinds.map((kind) => op.problems[kind]).join(" "));
  }
  return {
    operationId: op.operationId,
    tags: [TAGS[op.tag]],
    summary: op.summary,
    description: op.description,
    parameters: op.parameters.flatMap(parameters),
    responses: {
      200: {
        description: COMPONENTS[op.answer].description,
        headers: { "x-request-id": { $ref: "#/components/headers/RequestId" } },
        content: { "application/json": { schema: { $ref: `#/components/schemas/${op.answer}` } } },
      },
      ...problems,
      ...KEYED_ANSWERS,
    },
  };
}

/** A problem answer, its `type` and `status` narrowed to the kinds given (all of one status). */
function problemAnswer(
  kinds: ProblemKind[],
  description: string,
  headers: ResponseObject["headers"] = {},
): ResponseObject {
  const statuses = new Set(kinds.map((kind) => PROBLEMS[kind].status));
  if (statuses.size !== 1) throw new Error(`one answer cannot hold problems of statuses ${[...statuses].join(", ")}`);
  const types = kinds.map(problemType);
  return {
    description,
    headers: { "x-request-id": { $ref: "#/components/headers/RequestId" }, ...headers },
    content: {
      [PROBLEM_CONTENT_TYPE]: {
        schema: {
          allOf: [
            { $ref: "#/components/schemas/Problem" },
            {
              type: "object",
              properties: {
                type: types.length === 1 ? { const: types[0] } : { enum: types },
                status: { const: [...statuses][0] },
              },
            },
          ],
        },
      },
    },
  };
}

/** One parameter per property of the set's zod object, as a client sends it (its input). */
function parameters(set: ParameterSet): ParameterObject[] {
  const json = z.toJSONSchema(set.schema, { io: "input" });
  const properties = json.properties ?? {};
  const required = new Set(json.required ?? []);
  notesMatch(Object.keys(properties), Object.keys(set.descriptions), `${set.in} parameters`, { all: true });
  return Object.entries(properties).map(([name, schema]) => {
    if (set.in === "path" && !required.has(name)) throw new Error(`path parameter ${name} must be required`);
    return {
      name,
      in: set.in,
      required: required.has(name),
      description: set.descriptions[name],
      schema: bare(schema),
    };
  });
}

/** Each component once, referring to the others by `#/components/schemas/<name>`. */
function componentSchemas(): Record<string, SchemaObject> {
  const registry = z.registry<{ id: string }>();
  const components = Object.entries(COMPONENTS as Record<string, Component>);
  for (const [id, { schema }] of components) registry.add(schema, { id });
  const generated = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}` }).schemas;
  return Object.fromEntries(
    components.map(([id, { schema, description, fields = {}, example }]) => [
      id,
      {
        ...withNotes(bare(generated[id]!), fields, id),
        description,
        ...(example === undefined ? {} : { examples: [z.parse(schema, example)] }),
      },
    ]),
  );
}

function withNotes(schema: SchemaObject, notes: FieldNotes, where: string): SchemaObject {
  const properties = (schema.properties ?? {}) as Record<string, SchemaObject>;
  notesMatch(Object.keys(properties), Object.keys(notes), where, { all: false });
  const noted = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => {
      const note = notes[name];
      return [name, typeof note === "string" ? { ...property, description: note } : { ...property, ...note }];
    }),
  );
  return { ...schema, properties: noted };
}

/**
 * A generated schema as the document holds it: without `$schema` and `$id`, since inside an
 * OpenAPI 3.1 document a schema takes the document's dialect and place.
 */
function bare(schema: z.core.JSONSchema._JSONSchema): SchemaObject {
  if (typeof schema === "boolean") throw new Error("a zod schema gave a boolean JSON Schema");
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  return rest as SchemaObject;
}

/** Throws unless the notes name only keys the schema has (and, with `all`, every one of them). */
function notesMatch(schemaKeys: string[], notedKeys: string[], where: string, { all }: { all: boolean }) {
  const wrong = [
    ...notedKeys.filter((key) => !schemaKeys.includes(key)).map((key) => `${key} is not in the schema`),
    ...(all ? schemaKeys.filter((key) => !notedKeys.includes(key)).map((key) => `${key} needs a description`) : []),
  ];
  if (wrong.length) throw new Error(`${where}: ${wrong.join("; ")}`);
}
