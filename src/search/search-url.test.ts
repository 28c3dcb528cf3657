import { describe, expect, it } from "vitest";
import { searchFormUrl } from "../shared/page-urls.ts";
import { looksLikeLicenseNumber, readSearchUrl, submitTarget } from "./search-url.ts";

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

  it("keeps a license number as a form to show, not a search to run", () => {
    expect(read("state=ny&by=license&q=1268007")).toEqual({
      values: { state: "ny", by: "license", q: "1268007" },
      query: null,
      problem: null,
    });
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
    expect(submitTarget({ state: "ny", by: "license", q: " 0012345 " })).toMatchObject({ url: "/license/ny/0012345" });
    expect(submitTarget({ state: "ca", by: "license", q: "47/B 12#3" })).toMatchObject({
      url: "/license/ca/47%2FB%2012%233",
    });
  });

  it("leaves the form with the number behind a license, for Back to come to", () => {
    const target = submitTarget({ state: "ca", by: "license", q: " 47/B 12#3 " });
    expect(target).toEqual({
      url: "/license/ca/47%2FB%2012%233",
      formUrl: "/?state=ca&by=license&q=47%2FB+12%233",
    });
    const back = new URL((target as { formUrl: string }).formUrl, "http://app");
    expect(readSearchUrl(back.searchParams).values).toEqual({ state: "ca", by: "license", q: "47/B 12#3" });
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

describe("the search form's own URL", () => {
  it("fills the form in any mode, for links such as a license page's “New search”", () => {
    expect(searchFormUrl({ state: "ny", by: "license", q: "1268007" })).toBe("/?state=ny&by=license&q=1268007");
    expect(searchFormUrl({ state: "nj", by: "license" })).toBe("/?state=nj&by=license");
    expect(searchFormUrl({ state: "ma", by: "address", q: "" })).toBe("/?state=ma&by=address");
    const url = new URL(searchFormUrl({ state: "ny", by: "license", q: "00780-RS-0116" }), "http://app");
    expect(readSearchUrl(url.searchParams)).toEqual({
      values: { state: "ny", by: "license", q: "00780-RS-0116" },
      query: null,
      problem: null,
    });
  });
});

describe("a term that looks like a license number", () => {
  it.each(["1268007", "00780-RS-0116", "0101-33-005-003", "574903", " 1234 "])("%s does", (term) => {
    expect(looksLikeLicenseNumber(term)).toBe(true);
  });

  it.each(["tavern", "7-eleven", "12 main st", "123", "1268 007", "A1B2C3D4", "route66", ""])("%s does not", (term) => {
    expect(looksLikeLicenseNumber(term)).toBe(false);
  });
});
