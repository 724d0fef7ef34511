import { QueryClient } from '@tanstack/react-query';
import { HttpError } from '../lib/http';

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
