import { Button, Form, Input, Tag } from 'antd';
import type { Rule } from 'antd/es/form';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  /** The form field holding a new value. */
  name: string;
  label: string;
  extra?: string;
  /** A value is stored (the API never answers it). */
  isSet: boolean;
  /** Typing a new one. */
  replacing: boolean;
  onReplace: (replacing: boolean) => void;
  rules?: Rule[];
  placeholder?: string;
  /** Beside Replace while one is stored (a button that removes an optional secret). */
  actions?: ReactNode;
}

/**
 * A write-only secret (an API key, an API secret): "set" with a Replace button while one is stored,
 * a password box while a new one is typed. What is stored is never shown or sent back.
 */
export function SecretInput({ name, label, extra, isSet, replacing, onReplace, rules, placeholder, actions }: Props) {
  const { t } = useTranslation('integrations');
  const { t: tc } = useTranslation('common');
  return (
    <Form.Item label={label} extra={extra} required={!isSet}>
      {replacing || !isSet ? (
        <div className="lr-add-row">
          <Form.Item name={name} noStyle rules={rules}>
            <Input.Password
              autoComplete="new-password"
              placeholder={placeholder}
              className="lr-grow"
              aria-label={label}
            />
          </Form.Item>
          {isSet && <Button onClick={() => onReplace(false)}>{tc('cancel')}</Button>}
        </div>
      ) : (
        <div className="lr-add-row">
          <Tag color="green">{t('secret.set')}</Tag>
          <Button size="small" onClick={() => onReplace(true)}>
            {t('secret.replace')}
          </Button>
          {actions}
        </div>
      )}
    </Form.Item>
  );
}
