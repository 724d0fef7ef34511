import { email } from '@leadrelay/shared';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../../../lib/form';

const loginRule = zodRule(email());

/** The login (e-mail) field of the sign-in, sign-up and recovery forms, checked by the shared rule. */
export function EmailField() {
  const { t } = useTranslation('auth');
  return (
    <Form.Item name="login" label={t('email')} rules={[loginRule]} validateTrigger="onBlur">
      <Input inputMode="email" autoComplete="username" placeholder={t('emailPlaceholder')} />
    </Form.Item>
  );
}
