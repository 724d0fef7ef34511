// What the account's browsers are sent over the real-time channel, as a test sees it: the server's
// own emit is watched (the socket path itself is plugins/realtime.test.ts's).
import { expect, vi } from 'vitest';
import type { IntegrationUpdate } from '../plugins/realtime';
import type { TestApp } from './test-app';

/** Records UPDATE_INTEGRATION from now on; `next` waits for the one about an integration. */
export function watchIntegrationUpdates(t: TestApp) {
  const spy = vi.spyOn(t.app.realtime, 'emitToAccount');
  const updates = () =>
    spy.mock.calls
      .filter(([, event]) => event === 'UPDATE_INTEGRATION')
      .map(([accountId, , payload]) => ({ accountId, ...(payload as IntegrationUpdate) }));
  return {
    updates,
    /** The first UPDATE_INTEGRATION about `integrationId` (it is sent once its state is read). */
    async about(integrationId: string) {
      await vi.waitFor(() => expect(updates().map((u) => u.integrationId)).toContain(integrationId), {
        timeout: 5_000,
      });
      return updates().find((u) => u.integrationId === integrationId)!;
    },
    stop: () => spy.mockRestore(),
  };
}
