import { Writable } from "node:stream";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProblemSchema } from "../../src/contract/problem.ts";
import { answerError, answerFrameworkError, answerNotFound, ProblemError } from "./problem.ts";

const logged: { level: number; reqId?: string; err?: { message: string } }[] = [];
const app = Fastify({
  logger: {
    level: "error",
    stream: new Writable({
      write(line: Buffer, _encoding, done) {
        logged.push(JSON.parse(line.toString()) as (typeof logged)[number]);
        done();
      },
    }),
  },
  frameworkErrors: answerFrameworkError,
});

beforeAll(async () => {
  app.setErrorHandler(answerError);
  app.setNotFoundHandler(answerNotFound);
  app.get("/broken", () => {
    throw new Error("SQLITE_CORRUPT: secret detail");
  });
  app.get("/refused", () => {
    throw new ProblemError("There is no user 7.", { status: 404, title: "Not done" });
  });
  app.post("/rows", { bodyLimit: 1024 * 1024, config: { body: "the rows" } }, () => ({ data: "kept" }));
  app.get("/things/:id", () => ({ data: "thing" }));
  await app.ready();
});
afterAll(() => app.close());

async function problemOf(response: Awaited<ReturnType<typeof app.inject>>) {
  expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
  const problem = ProblemSchema.parse(response.json());
  expect(problem.status).toBe(response.statusCode);
  expect(problem.request_id).toBe(response.headers["x-request-id"]);
  return problem;
}

describe("the one error handler", () => {
  it("hides a server error's cause from the client, and logs it under the request id the client can quote", async () => {
    const response = await app.inject({ url: "/broken" });
    expect(response.statusCode).toBe(500);
    const problem = await problemOf(response);
    expect(response.body).not.toMatch(/SQLITE|secret/);
    expect(problem.detail).toContain(problem.request_id);
    expect(logged).toContainEqual(
      expect.objectContaining({
        reqId: problem.request_id,
        err: expect.objectContaining({ message: expect.stringContaining("SQLITE") }),
      }),
    );
  });

  it("answers a body Fastify cannot read in words that say what to send", async () => {
    const json = { "content-type": "application/json" };
    const broken = await app.inject({ method: "POST", url: "/rows", headers: json, payload: "{" });
    expect(broken.statusCode).toBe(400);
    expect((await problemOf(broken)).detail).toMatch(/not valid JSON/);

    const xml = await app.inject({ method: "POST", url: "/rows", headers: { "content-type": "application/xml" } });
    expect(xml.statusCode).toBe(415);
    expect((await problemOf(xml)).detail).toBe("Send the rows as JSON (Content-Type: application/json).");

    const large = await app.inject({
      method: "POST",
      url: "/rows",
      headers: json,
      payload: `"${"x".repeat(2 ** 20)}"`,
    });
    expect(large.statusCode).toBe(400);
    expect((await problemOf(large)).detail).toBe("More than 1 MB cannot be sent at once.");
  });

  it("answers an error thrown as a problem in its own words and status", async () => {
    const response = await app.inject({ url: "/refused" });
    expect(response.statusCode).toBe(404);
    expect(await problemOf(response)).toMatchObject({
      type: "about:blank",
      title: "Not done",
      detail: "There is no user 7.",
    });
  });

  it("answers a URL it cannot decode, and a path it does not know, as problems too", async () => {
    const broken = await app.inject({ url: "/things/%E0%A4%A" });
    expect(broken.statusCode).toBe(400);
    await problemOf(broken);
    const missing = await app.inject({ url: "/nowhere?q=1" });
    expect(missing.statusCode).toBe(404);
    expect((await problemOf(missing)).detail).toBe("There is nothing at /nowhere.");
  });
});
