import { Switch, TimePicker, Typography } from 'antd';
import { dayjs } from '../../lib/dayjs';

export interface TimeRange {
  enabled: boolean;
  /** HH:MM */
  from: string;
  to: string;
}

interface Props {
  /** From Form.Item. */
  value?: TimeRange;
  onChange?: (value: TimeRange) => void;
  id?: string;
  /** The switch's name (the field's label). */
  label: string;
  from: string;
  to: string;
}

const time = (hhmm: string) => dayjs(`2000-01-01T${hhmm}:00`);

/** A daily window that may run past midnight (quiet hours): on or off, from and to, in 5-minute steps. */
export function TimeRangeInput({
  value = { enabled: false, from: '00:00', to: '00:00' },
  onChange,
  id,
  label,
  from,
  to,
}: Props) {
  const end = (key: 'from' | 'to', text: string) => (
    <span className="lr-time-range-end">
      <Typography.Text>{text}</Typography.Text>
      <TimePicker
        value={time(value[key])}
        onChange={(d) => d && onChange?.({ ...value, [key]: d.format('HH:mm') })}
        format="HH:mm"
        minuteStep={5}
        allowClear={false}
        needConfirm={false}
        disabled={!value.enabled}
        aria-label={text}
      />
    </span>
  );
  return (
    <div className="lr-time-range">
      <Switch
        id={id}
        checked={value.enabled}
        onChange={(enabled) => onChange?.({ ...value, enabled })}
        aria-label={label}
      />
      {end('from', from)}
      {end('to', to)}
    </div>
  );
}
