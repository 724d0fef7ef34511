// Forms with changes not saved yet. A settings form registers itself while dirty; one prompt in
// the account layout (components/unsaved-changes-prompt.tsx) asks before leaving the page, and the
// browser asks before closing or reloading the tab (beforeunload).
import { useCallback, useEffect, useId, useState, useSyncExternalStore } from 'react';

const dirtyForms = new Set<string>();
const listeners = new Set<() => void>();
const notify = () => {
  for (const l of listeners) l();
};

function onBeforeUnload(event: BeforeUnloadEvent) {
  event.preventDefault();
  // Older browsers show the prompt only when returnValue is set.
  event.returnValue = '';
}

function setDirty(id: string, dirty: boolean): void {
  const had = dirtyForms.size > 0;
  if (dirty) dirtyForms.add(id);
  else dirtyForms.delete(id);
  const has = dirtyForms.size > 0;
  if (had === has) return;
  if (has) window.addEventListener('beforeunload', onBeforeUnload);
  else window.removeEventListener('beforeunload', onBeforeUnload);
  notify();
}

export const hasUnsavedChanges = (): boolean => dirtyForms.size > 0;

/** Forgets every dirty form: the user chose to leave without saving. */
export function discardUnsavedChanges(): void {
  for (const id of [...dirtyForms]) setDirty(id, false);
}

/** Whether any form on the page has unsaved changes (re-renders when that changes). */
export function useHasUnsavedChanges(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    hasUnsavedChanges,
    () => false,
  );
}

/** Registers this form as dirty while `dirty` is true (and until it unmounts). */
export function useUnsavedChanges(dirty: boolean): void {
  const id = useId();
  useEffect(() => {
    setDirty(id, dirty);
    return () => setDirty(id, false);
  }, [id, dirty]);
}

/**
 * A settings form's dirty flag, registered for the leave prompt: pass `onValuesChange` to the antd
 * Form (typing marks it dirty) and call `saved()` once the server answered that it stored the values.
 */
export function useFormGuard() {
  const [dirty, setFormDirty] = useState(false);
  useUnsavedChanges(dirty);
  const onValuesChange = useCallback(() => setFormDirty(true), []);
  const saved = useCallback(() => setFormDirty(false), []);
  return { dirty, onValuesChange, saved };
}
