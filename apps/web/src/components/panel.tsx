import type { HTMLAttributes, ReactNode } from 'react';
import './panel.css';

/**
 * A card as antd's `Card` draws it (title, extra, body; `small`), in plain markup: antd's Card
 * brings its Tabs (10 KB gzipped) to every page that shows one, the dashboard's first load
 * included (issue 17 part 8). Styled with the theme's variables, so both look the same.
 */
export function Panel({
  title,
  extra,
  size,
  className,
  children,
  ...rest
}: Omit<HTMLAttributes<HTMLElement>, 'title'> & {
  title?: ReactNode;
  extra?: ReactNode;
  size?: 'small';
  children?: ReactNode;
}) {
  return (
    <section
      className={['lr-panel', size === 'small' && 'lr-panel-small', className].filter(Boolean).join(' ')}
      {...rest}
    >
      {(title || extra) && (
        <div className="lr-panel-head">
          {title && <div className="lr-panel-title">{title}</div>}
          {extra && <div className="lr-panel-extra">{extra}</div>}
        </div>
      )}
      <div className="lr-panel-body">{children}</div>
    </section>
  );
}
