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
let lastSubject = tokenPayload()?.sub;
subscribeToken(() => {
  const subject = tokenPayload()?.sub;
  if (subject === lastSubject) return;
  lastSubject = subject;
  void queryClient.resetQueries();
});
