import { ThunderboltOutlined } from '@ant-design/icons';
import { generatePassword } from '@leadrelay/shared';
import { Button, Form, type FormInstance, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A password input with show/hide and a "generate" button that fills both the password and its
 * confirmation with generatePassword() and reveals it.
 */
export function PasswordWithGenerator({
  form,
  name = 'password',
  confirmName = 'passwordConfirm',
  label,
  rules,
}: {
  form: FormInstance;
  name?: string;
  confirmName?: string;
  label: string;
  rules: import('antd').FormRule[];
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
          icon={<ThunderboltOutlined />}
          onClick={onGenerate}
          title={t('signup.generated')}
          aria-label={t('signup.generate')}
        >
          <span className="lr-hide-xs">{t('signup.generate')}</span>
        </Button>
      </Space.Compact>
    </Form.Item>
  );
}
