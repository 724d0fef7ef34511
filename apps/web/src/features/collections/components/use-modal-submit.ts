import type { FormInstance } from 'antd';
import { useState } from 'react';
import { errorMessage } from '../../../lib/errors';
import { applyServerErrors } from '../../../lib/form';
import { useApp } from '../../../lib/use-app';

/** A modal form's submit: busy while the call runs, closes on success, shows the server's errors. */
export function useModalSubmit<T>(form: FormInstance, submit: (values: T) => Promise<unknown>, onClose: () => void) {
  const { message } = useApp();
  const [busy, setBusy] = useState(false);
  const onFinish = async (values: T) => {
    setBusy(true);
    try {
      await submit(values);
      onClose();
    } catch (err) {
      if (!applyServerErrors(form, err)) void message.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, onFinish };
}
