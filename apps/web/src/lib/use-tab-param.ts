import { useSearchParams } from 'react-router';

/** A page's tab kept in the URL (?tab=…), so a reload or a shared link opens the same tab. */
export function useTabParam(): { requested: string; select(key: string): void } {
  const [params, setParams] = useSearchParams();
  return {
    requested: params.get('tab') ?? '',
    select: (key) =>
      setParams(
        (p) => {
          p.set('tab', key);
          return p;
        },
        { replace: true },
      ),
  };
}
