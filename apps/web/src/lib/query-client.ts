import { QueryClient } from '@tanstack/react-query';
import { subscribeToken, tokenPayload } from './auth';
import { HttpError } from './http';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (count, err) => !(err instanceof HttpError && err.status < 500) && count < 2,
    },
    mutations: { retry: false },
  },
});

// Another account's token (sign-in, /enter as a user) must not see the previous account's cache.
// Signed out (logout, an expired session), nothing is refetched: the queries still on screen would
// only go out without a token, to be answered 401, while the page leaves for /signin.
let lastSubject = tokenPayload()?.sub;
subscribeToken(() => {
  const subject = tokenPayload()?.sub;
  if (subject === lastSubject) return;
  lastSubject = subject;
  if (subject === undefined) {
    void queryClient.cancelQueries();
    queryClient.clear();
    return;
  }
  void queryClient.resetQueries();
});
