import { QueryClient } from "@tanstack/react-query";
import { isTransient } from "../api/api-error.ts";

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // 4xx and malformed answers will not change on their own; outages and dropped connections may.
        // A 504 has already waited out the server's time limit, and a 429 waits in the error notice, where the person sees why.
        retry: (failureCount, error) => isTransient(error) && error.details.status !== 504 && failureCount < 2,
      },
    },
  });
}
