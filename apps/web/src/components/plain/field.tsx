import { type InputHTMLAttributes, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from './icons';
import './plain.css';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'>;

/**
 * A labelled text or password field without antd, for the forms that show before it loads. Its
 * error is tied to the input (aria-invalid, aria-describedby) as antd's Form.Item does.
 */
export function Field({
  label,
  value,
  onChange,
  invalid,
  extra,
  password = false,
  ...input
}: InputProps & {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** What is wrong with the value, in the user's words (translated); none while it is fine. */
  invalid?: string;
  extra?: ReactNode;
  password?: boolean;
}) {
  const { t } = useTranslation();
  const generated = useId();
  // The input's id: the form's field name where given (as antd's Form.Item names it), else a new one.
  const id = input.id ?? generated;
  const [visible, setVisible] = useState(false);
  const errorId = `${id}-error`;
  return (
    <div className="lr-field">
      <label className="lr-field-label" htmlFor={id}>
        {label}
      </label>
      <div className="lr-input-wrap" data-invalid={invalid ? 'true' : undefined}>
        <input
          id={id}
          className="lr-input"
          type={password && !visible ? 'password' : 'text'}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={invalid ? errorId : undefined}
          {...input}
        />
        {password && (
          <button
            type="button"
            className="lr-input-toggle"
            aria-label={t(visible ? 'password.hide' : 'password.show')}
            aria-pressed={visible}
            onClick={() => setVisible((v) => !v)}
          >
            <Icon name={visible ? 'eye' : 'eyeInvisible'} />
          </button>
        )}
      </div>
      {invalid && (
        <p id={errorId} className="lr-field-error" role="alert">
          {invalid}
        </p>
      )}
      {extra && <div className="lr-field-extra">{extra}</div>}
    </div>
  );
}
