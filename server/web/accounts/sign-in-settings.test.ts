import { describe, expect, it } from "vitest";
import { trustedProxiesFromEnv } from "./sign-in-settings.ts";

describe("TRUST_PROXY", () => {
  it("takes addresses, CIDR ranges and proxy-addr's range names, comma-separated", () => {
    expect(trustedProxiesFromEnv({})).toEqual([]);
    expect(trustedProxiesFromEnv({ TRUST_PROXY: " 10.0.0.0/8, 192.0.2.7,fd00::/8 ,::1, loopback" })).toEqual([
      "10.0.0.0/8",
      "192.0.2.7",
      "fd00::/8",
      "::1",
      "loopback",
    ]);
  });

  it.each(["true", "*", "1", "10.0.0.0/33", "::/129", "proxy.internal", "10.0.0.0/8/8", "10.0.0.0/"])(
    "refuses %j, naming what it takes",
    (value) => {
      expect(() => trustedProxiesFromEnv({ TRUST_PROXY: value })).toThrow(
        new RegExp(`^TRUST_PROXY must name the proxies .* not "${value.replace(/[*.]/g, "\\$&")}"$`),
      );
    },
  );
});
