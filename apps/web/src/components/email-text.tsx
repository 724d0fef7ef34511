import { Fragment } from 'react';
import './email-text.css';

/**
 * An e-mail address that wraps only between its parts: before the "@" and before each dot of the
 * domain, never inside a name. In a table the column then keeps room for the longest part instead
 * of breaking "anna.kova|lenko@exa|mple.com" wherever the width ran out.
 */
export function EmailText({ value }: { value: string }) {
  const at = value.lastIndexOf('@');
  if (at <= 0) return <span className="lr-email">{value}</span>;
  const domain = value.slice(at + 1).split('.');
  return (
    <span className="lr-email" title={value}>
      {value.slice(0, at)}
      <wbr />@
      {domain.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one address, in their fixed order
        <Fragment key={i}>
          {i > 0 && (
            <>
              <wbr />.
            </>
          )}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
