import { ThunderboltOutlined } from '@ant-design/icons';
import { generatePassword } from '@leadrelay/shared';
import { Button, Form, type FormInstance, type FormRule, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { equalsRule } from '../lib/form';

/**
 * A new password with show/hide and a "generate" button, and its confirmation (password_equal).
 * Generating fills both with generatePassword() and reveals it.
 */
export function PasswordWithGenerator({
  form,
  name = 'password',
  confirmName = 'passwordConfirm',
  label,
  confirmLabel,
  rules,
}: {
  form: FormInstance;
  name?: string;
  confirmName?: string;
  label: string;
  confirmLabel: string;
  rules: FormRule[];
}) {
  const { t } = useTranslation('auth');
  const [visible, setVisible] = useState(false);
  const onGenerate = () => {
    const value = generatePassword();
    form.setFieldsValue({ [name]: value, [confirmName]: value });
    setVisible(true);
    void form.validateFields([name, confirmName]);
  };
  return (
    <>
      <Form.Item label={label}>
        <Space.Compact block>
          <Form.Item name={name} rules={rules} noStyle validateTrigger="onBlur">
            <Input.Password
              autoComplete="new-password"
              visibilityToggle={{ visible, onVisibleChange: setVisible }}
              aria-label={label}
            />
          </Form.Item>
          <Button
            icon={<ThunderboltOutlined aria-hidden />}
            onClick={onGenerate}
            title={t('signup.generated')}
            aria-label={t('signup.generate')}
          >
            <span className="lr-hide-xs">{t('signup.generate')}</span>
          </Button>
        </Space.Compact>
      </Form.Item>
      <Form.Item
        name={confirmName}
        label={confirmLabel}
        dependencies={[name]}
        rules={[equalsRule(name)]}
        validateTrigger="onBlur"
      >
        <Input.Password autoComplete="new-password" visibilityToggle={{ visible, onVisibleChange: setVisible }} />
      </Form.Item>
    </>
  );
}
