// Auth state (spec sections 3 and 4): the access token lives in memory and local storage; a
// cookie copy is accepted while its exp is in the future.
import { type AccessTokenPayload, STORAGE } from '@leadrelay/shared';
import Cookies from 'js-cookie';
import { useSyncExternalStore } from 'react';

let memoryToken: string | null = null;
const listeners = new Set<() => void>();

function notify() {
  for (const l of listeners) l();
}

export function decodeToken(token: string): Partial<AccessTokenPayload> | null {
  try {
    const part = token.split('.')[1];
    if (!part) return null;
    const json = atob(
      part
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(part.length / 4) * 4, '='),
    );
    const payload = JSON.parse(new TextDecoder().decode(Uint8Array.from(json, (c) => c.charCodeAt(0))));
    return payload && typeof payload === 'object' ? payload : null;
  } catch {
    return null;
  }
}

/** True when the token decodes and its exp (seconds) is later than now (+ leeway). */
export function isTokenFresh(token: string | null, leewaySeconds = 0, now = Date.now()): boolean {
  if (!token) return false;
  const exp = decodeToken(token)?.exp;
  return typeof exp === 'number' && exp * 1000 > now + leewaySeconds * 1000;
}

function readStorage(): string | null {
  try {
    return localStorage.getItem(STORAGE.sessionToken);
  } catch {
    return null;
  }
}

/** The current token: memory, then local storage, then a cookie copy that has not expired. */
export function getToken(): string | null {
  if (memoryToken) return memoryToken;
  const stored = readStorage();
  if (stored) {
    memoryToken = stored;
    return stored;
  }
  const fromCookie = Cookies.get(STORAGE.sessionToken);
  if (fromCookie && isTokenFresh(fromCookie)) {
    memoryToken = fromCookie;
    return fromCookie;
  }
  return null;
}

export function setToken(token: string): void {
  memoryToken = token;
  endedOnPurpose = false;
  try {
    localStorage.setItem(STORAGE.sessionToken, token);
  } catch {
    // storage may be unavailable (private mode); memory still holds the token
  }
  notify();
}

export function clearToken(): void {
  memoryToken = null;
  try {
    localStorage.removeItem(STORAGE.sessionToken);
  } catch {
    // ignore
  }
  Cookies.remove(STORAGE.sessionToken, { path: '/' });
  notify();
}

let signedOutTo: string | null = null;
let endedOnPurpose = false;
/**
 * A deliberate sign-out: the account guard then goes straight to `next` (a path without the
 * language prefix) instead of trying a refresh. Called before the session ends on the server, so
 * the 401s that follow (calls in flight, or refetched without a token) are no "session ended".
 */
export function markSignedOut(next = '/signin'): void {
  signedOutTo = next;
  endedOnPurpose = true;
}
/** True from a deliberate sign-out until the next token is stored. */
export function isSignedOutOnPurpose(): boolean {
  return endedOnPurpose;
}
export function consumeSignedOut(): string | null {
  const next = signedOutTo;
  signedOutTo = null;
  return next;
}

export function subscribeToken(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The token (or null), re-rendering when it changes. */
export function useToken(): string | null {
  return useSyncExternalStore(subscribeToken, getToken, () => null);
}

export function tokenPayload(): Partial<AccessTokenPayload> | null {
  const t = getToken();
  return t ? decodeToken(t) : null;
}

/** For tests: forget the memory copy. */
export function resetAuthForTests(): void {
  memoryToken = null;
  signedOutTo = null;
  endedOnPurpose = false;
  listeners.clear();
}
