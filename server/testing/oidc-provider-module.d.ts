// The little of oidc-provider (no types of its own; @types/oidc-provider not installed) that the test provider uses.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export interface OidcAccount {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown>> | Record<string, unknown>;
  }

  export interface ProviderConfiguration {
    clients: Record<string, unknown>[];
    findAccount(ctx: unknown, id: string): Promise<OidcAccount | undefined>;
    claims?: Record<string, string[]>;
    cookies?: { keys?: string[] };
    jwks?: { keys: Record<string, unknown>[] };
    pkce?: { required?: () => boolean };
    features?: Record<string, { enabled: boolean }>;
    ttl?: Record<string, number>;
    renderError?(ctx: { type: string; body: string }, out: Record<string, string>, error: Error): Promise<void>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: ProviderConfiguration);
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
