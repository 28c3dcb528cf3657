import { describe, expect, it } from "vitest";
import { safeNext } from "./account-paths.ts";

describe("safeNext", () => {
  it.each([
    ["/license/ny/0012345?from=email", "/license/ny/0012345?from=email"],
    ["/search?name=dead+rabbit#results", "/search?name=dead+rabbit#results"],
    // Percent-encoded as a Location header must be: a character past Latin-1 there was a 500.
    ["/search?name=José", "/search?name=Jos%C3%A9"],
    ["/€", "/%E2%82%AC"],
    // Encoded, these are a path on the app (its not-found page), never another host.
    ["/%09/evil.example", "/%09/evil.example"],
    ["/%5C/evil.example", "/%5C/evil.example"],
    ["/%2F%2Fevil.example", "/%2F%2Fevil.example"],
    ["/license/../checks", "/checks"],
  ])("keeps %j as %j", (next, kept) => {
    expect(safeNext(next)).toBe(kept);
  });

  it.each([
    null,
    "",
    "license/ny/1",
    "https://evil.example/",
    "//evil.example",
    "/\\evil.example",
    "/\\/evil.example",
    // A browser drops tabs, CR and LF from a URL: each of these is //evil.example to it.
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "/\u0000/evil.example",
    "/\u007f/evil.example",
    "/\u0085/evil.example",
    // Dot segments that leave a path starting with two slashes, which a Location would send to another host.
    "/.//evil.example",
    "/..//evil.example",
    "/a/..//evil.example",
    "/sign-in?next=/checks",
    "/./sign-in",
    "/api/sign-out",
  ])("sends %j to /", (next) => {
    expect(safeNext(next)).toBe("/");
  });
});
