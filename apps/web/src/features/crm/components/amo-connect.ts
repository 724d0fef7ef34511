import { errorMessage } from '../../../lib/errors';
import { useApp } from '../../../lib/use-app';
import { useAmoConnect } from '../queries';

export const AMO_NAME = 'amoCRM';

/** The browser goes to amoCRM; amo returns to the server's callback, which comes back here. */
export function useStartAmoConnect() {
  const { message } = useApp();
  const connect = useAmoConnect();
  const start = async (integrationId: string) => {
    try {
      const { url } = await connect.mutateAsync(integrationId);
      window.location.assign(url);
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  return { start, isPending: connect.isPending };
}
