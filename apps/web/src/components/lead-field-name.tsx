import { Typography } from 'antd';
import { leadFieldLabel } from '../lib/lead-fields';
import './lead-field-name.css';

/**
 * A lead field as a person reads it: its name in the page's language with the key beside it, small,
 * as a technical detail (what a rule or a template refers to); a key the product does not know is the
 * sender's own and is shown as it is.
 */
export function LeadFieldName({ field, showKey = true }: { field: string; showKey?: boolean }) {
  const label = leadFieldLabel(field);
  if (label === null) {
    return (
      <Typography.Text code translate="no">
        {field}
      </Typography.Text>
    );
  }
  return (
    <span className="lr-field-name">
      {label}
      {showKey && (
        <>
          {' '}
          <Typography.Text type="secondary" code translate="no" className="lr-field-key">
            {field}
          </Typography.Text>
        </>
      )}
    </span>
  );
}
