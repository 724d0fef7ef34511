import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { translateCode } from './errors';
import { useApp } from './use-app';

/**
 * Our OAuth callbacks (a connector's whose manifest says so, an account connection's sign-in)
 * come back with ?connected=<1 or an id> or ?error=<CODE>: a toast says how it went (the error's own text when
 * there is one, else `failed`) and the query is cleaned, so a reload does not repeat it. Returns
 * what `connected` named, for the page to highlight.
 */
export function useOAuthReturn(texts: { done: string; failed: string }): string | null {
  const { message } = useApp();
  const [params, setParams] = useSearchParams();
  const done = useRef(false);
  const justConnected = useRef<string | null>(null);
  const connected = params.get('connected');
  const error = params.get('error');
  if (connected && !justConnected.current) justConnected.current = connected;

  useEffect(() => {
    if (done.current || (!connected && !error)) return;
    done.current = true;
    if (error) void message.error(translateCode(error, texts.failed));
    else void message.success(texts.done);
    setParams(
      (p) => {
        p.delete('connected');
        p.delete('error');
        return p;
      },
      { replace: true },
    );
  }, [connected, error, message, setParams, texts.done, texts.failed]);

  return justConnected.current;
}
