import { describe, expect, it } from "vitest";
import { readSearchUrl, submitTarget } from "./search-url.ts";

const read = (search: string) => readSearchUrl(new URLSearchParams(search));

describe("reading a search from the URL", () => {
  it("gives the form its values and the search to run", () => {
    expect(read("state=NY&by=address&q=%2012%20main%20st%20")).toEqual({
      values: { state: "ny", by: "address", q: " 12 main st " },
      query: { state: "ny", by: "address", q: "12 main st" },
      problem: null,
    });
  });

  it("defaults to a name search", () => {
    expect(read("state=ny&q=tavern").query).toEqual({ state: "ny", by: "name", q: "tavern" });
  });

  it("runs nothing for an incomplete or invalid URL, but keeps what it can for the form", () => {
    expect(read("").query).toBeNull();
    expect(read("state=ny").query).toBeNull();
    expect(read("state=zz&q=tavern")).toEqual({
      values: { state: "zz", by: "name", q: "tavern" },
      query: null,
      problem: null,
    });
    expect(read(`state=ny&q=${"a".repeat(101)}`).query).toBeNull();
  });

  it("says why a term in the URL cannot be searched, but not that a term is missing", () => {
    expect(read(`state=ny&q=${"a".repeat(101)}`).problem).toEqual({
      field: "q",
      error: "Name must be at most 100 characters.",
    });
    expect(read("state=ny&by=address&q=12%07main").problem).toEqual({
      field: "q",
      error: "Address must not contain control characters.",
    });
    expect(read("state=ny").problem).toBeNull();
    expect(read("state=ny&q=%20%20").problem).toBeNull();
  });
});

describe("submitting the form", () => {
  it("puts a name or address search in the URL", () => {
    expect(submitTarget({ state: "ny", by: "name", q: "  joe's tavern " })).toEqual({
      url: "/?state=ny&by=name&q=joe%27s+tavern",
    });
    expect(submitTarget({ state: "ma", by: "address", q: "12 Main St" })).toEqual({
      url: "/?state=ma&by=address&q=12+Main+St",
    });
  });

  it("round-trips: the URL it makes reads back as the same search", () => {
    const target = submitTarget({ state: "ny", by: "address", q: "100 Broadway & 5th #2" });
    expect("url" in target).toBe(true);
    const url = new URL((target as { url: string }).url, "http://app");
    expect(readSearchUrl(url.searchParams).query).toEqual({ state: "ny", by: "address", q: "100 Broadway & 5th #2" });
  });

  it("sends a license number straight to its page, leading zeros, slashes, spaces and # intact", () => {
    expect(submitTarget({ state: "ny", by: "license", q: " 0012345 " })).toEqual({ url: "/license/ny/0012345" });
    expect(submitTarget({ state: "ca", by: "license", q: "47/B 12#3" })).toEqual({
      url: "/license/ca/47%2FB%2012%233",
    });
  });

  it("says what to fix first", () => {
    expect(submitTarget({ state: "", by: "name", q: "x" })).toEqual({ field: "state", error: "Choose a state." });
    expect(submitTarget({ state: "ny", by: "address", q: "   " })).toEqual({
      field: "q",
      error: "Enter a street address.",
    });
    expect(submitTarget({ state: "ny", by: "name", q: "a".repeat(101) })).toEqual({
      field: "q",
      error: "Name must be at most 100 characters.",
    });
    expect(submitTarget({ state: "ny", by: "name", q: "bad\u0007bell" })).toMatchObject({ field: "q" });
  });
});
