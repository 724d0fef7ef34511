import { errorMessage } from '../../../lib/errors';
import { currentLocale } from '../../../lib/locale';
import { useApp } from '../../../lib/use-app';
import { useStartConnectMutation } from '../queries';

/** Connect or reconnect: the browser goes to Facebook Login and comes back to the connections screen. */
export function useFacebookConnect() {
  const { message } = useApp();
  const start = useStartConnectMutation();
  const connect = async () => {
    try {
      const { authUrl } = await start.mutateAsync(currentLocale());
      window.location.assign(authUrl);
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  return { connect, isPending: start.isPending };
}
