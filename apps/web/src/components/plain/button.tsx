import type { ButtonHTMLAttributes, ReactNode } from 'react';
import './plain.css';

export type ButtonKind = 'primary' | 'default' | 'text';

/** The classes of a plain button, also for a link that looks like one. */
export function buttonClass(kind: ButtonKind = 'default', size?: 'small' | 'large', block = false, extra?: string) {
  return [
    'lr-btn',
    kind !== 'default' && `lr-btn-${kind}`,
    size === 'large' && 'lr-btn-lg',
    size === 'small' && 'lr-btn-sm',
    block && 'lr-btn-block',
    extra,
  ]
    .filter(Boolean)
    .join(' ');
}

type Props = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> & {
  kind?: ButtonKind;
  size?: 'small' | 'large';
  block?: boolean;
  /** Shows a spinner and ignores clicks, as antd's `loading`. */
  loading?: boolean;
  icon?: ReactNode;
  htmlType?: 'button' | 'submit';
};

/** A button without antd (the pages that show before it loads), looking as antd's does. */
export function Button({
  kind,
  size,
  block,
  loading,
  icon,
  htmlType = 'button',
  className,
  children,
  onClick,
  ...rest
}: Props) {
  return (
    <button
      type={htmlType}
      className={buttonClass(kind, size, block, className)}
      aria-busy={loading || undefined}
      onClick={loading ? (e) => e.preventDefault() : onClick}
      {...rest}
    >
      {loading ? <span className="lr-spin" aria-hidden="true" /> : icon}
      <span>{children}</span>
    </button>
  );
}
