import { Form, Input } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../../../lib/form';
import { loadAuthRules } from '../load-rules';

const loginRule = zodRule(() => loadAuthRules().then((rules) => rules.login));

/** The login (e-mail) field of the sign-in, sign-up and recovery forms, checked by the shared rule. */
export function EmailField() {
  const { t } = useTranslation('auth');
  // The rule's schema is fetched once the form shows, before anyone leaves the field.
  useEffect(() => void loadAuthRules(), []);
  return (
    <Form.Item name="login" label={t('email')} rules={[loginRule]} validateTrigger="onBlur">
      <Input inputMode="email" autoComplete="username" placeholder={t('emailPlaceholder')} />
    </Form.Item>
  );
}
