import { QueryClient } from "@tanstack/react-query";
import { isTransient } from "../api/api-error.ts";

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // 4xx and malformed answers will not change on their own; outages and dropped connections may.
        retry: (failureCount, error) => isTransient(error) && failureCount < 2,
      },
    },
  });
}
