import { Alert } from 'antd';
import { errorMessage } from '../lib/errors';

/** The message of a failed response, as an error alert. */
export function ServerError({ error }: { error: unknown }) {
  return <Alert type="error" showIcon title={errorMessage(error)} />;
}
