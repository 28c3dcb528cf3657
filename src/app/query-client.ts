import { hashKey, MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { isSignedOut, SESSION_KEY } from "../api/session-query.ts";
import { isTransient } from "../api/api-error.ts";

export function createQueryClient(): QueryClient {
  // A 401 from any answer means the session has ended: the session is asked again, and the layout, seeing no one
  // signed in, shows the sign-in page (the session's own 401 is that answer, not a reason to ask again).
  const sessionEnded = (error: unknown, queryHash?: string) => {
    if (isSignedOut(error) && queryHash !== hashKey(SESSION_KEY)) {
      void client.invalidateQueries({ queryKey: SESSION_KEY, exact: true });
    }
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => sessionEnded(error, query.queryHash) }),
    mutationCache: new MutationCache({ onError: (error) => sessionEnded(error) }),
    defaultOptions: {
      queries: {
        // 4xx and malformed answers will not change on their own; outages and dropped connections may.
        // A 504 has already waited out the server's time limit, and a 429 waits in the error notice, where the person sees why.
        retry: (failureCount, error) => isTransient(error) && error.details.status !== 504 && failureCount < 2,
      },
    },
  });
  return client;
}
