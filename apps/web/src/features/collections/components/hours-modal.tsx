import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  type CollectionItem,
  type Locale,
  OFFICE_HOURS,
  type Shift,
  type WorkingHours,
  ZShift,
  ZWorkingHours,
} from '@leadrelay/shared';
import { Button, Form, Input, Modal, Select, Space, Switch, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { translateCode } from '../../../lib/errors';
import { zodRule } from '../../../lib/form';
import { intlLocale } from '../../../lib/format';
import { zoneMatches, zoneOptions } from '../../../lib/time-zones';
import { useModalSubmit } from './use-modal-submit';

interface HoursValues {
  /** Off: always on duty (no hours stored). */
  scheduled: boolean;
  timeZone: string;
  week: Shift[][];
  daysOff: string[];
}

interface Props {
  open: boolean;
  item: CollectionItem | null;
  onClose: () => void;
  /** `undefined`: always on duty. */
  onSubmit: (hours: WorkingHours | undefined) => Promise<unknown>;
}

/** Monday … Sunday in the active language (1 January 2024 was a Monday). */
function weekdayNames(locale: Locale): string[] {
  const format = new Intl.DateTimeFormat(intlLocale(locale), { weekday: 'long', timeZone: 'UTC' });
  return Array.from({ length: 7 }, (_, d) => format.format(new Date(Date.UTC(2024, 0, 1 + d))));
}

const { shape: shift } = ZShift;

/**
 * A shift's time is typed as 24-hour text, not the browser's time box, which shows AM/PM on a
 * Ukrainian page in an English browser; "9:30" becomes "09:30" as it is typed.
 */
const padHour = (value: string) => (/^\d:\d\d$/.test(value) ? `0${value}` : value);

/**
 * A member's working hours (issue 19): a week of shifts in wall time (a shift whose end is not after
 * its start runs past midnight), days off, the time zone (Kyiv unless changed), or "always on duty".
 * The shared schema checks it here as the server does.
 */
export function HoursModal({ open, item, onClose, onSubmit }: Props) {
  const { t, i18n } = useTranslation('collections');
  const { t: tc } = useTranslation('common');
  const [form] = Form.useForm<HoursValues>();
  const days = useMemo(() => weekdayNames(i18n.language as Locale), [i18n.language]);
  const initial = item?.hours ?? OFFICE_HOURS;
  const zones = useMemo(() => zoneOptions(initial.timeZone), [initial.timeZone]);
  const scheduled = Form.useWatch('scheduled', form) ?? item?.hours !== undefined;

  const submit = async (values: HoursValues) => {
    if (!values.scheduled) return onSubmit(undefined);
    const parsed = ZWorkingHours.safeParse({
      timeZone: values.timeZone,
      week: values.week.map((d) => d ?? []),
      daysOff: values.daysOff ?? [],
    });
    if (!parsed.success) {
      form.setFields(
        parsed.error.issues.map((issue) => ({ name: issue.path as never, errors: [translateCode(issue.message)] })),
      );
      throw new Error(translateCode(parsed.error.issues[0]?.message));
    }
    return onSubmit(parsed.data);
  };
  const { busy, onFinish } = useModalSubmit<HoursValues>(form, submit, onClose);

  return (
    <Modal
      open={open}
      title={t('hours.title', { name: item?.name ?? '' })}
      okText={tc('save')}
      cancelText={tc('cancel')}
      okButtonProps={{ loading: busy, htmlType: 'submit', form: 'lr-hours-form' }}
      onCancel={onClose}
      width={640}
      destroyOnHidden
    >
      <Form
        form={form}
        id="lr-hours-form"
        layout="vertical"
        initialValues={{
          scheduled: item?.hours !== undefined,
          timeZone: initial.timeZone,
          week: initial.week,
          daysOff: initial.daysOff,
        }}
        onFinish={onFinish}
      >
        <Form.Item
          name="scheduled"
          valuePropName="checked"
          label={t('hours.scheduled')}
          extra={t('hours.scheduledHint')}
        >
          <Switch />
        </Form.Item>
        {scheduled && (
          <>
            <Form.Item name="timeZone" label={t('hours.timeZone')} rules={[zodRule(ZWorkingHours.shape.timeZone)]}>
              <Select showSearch options={zones} filterOption={zoneMatches} aria-label={t('hours.timeZone')} />
            </Form.Item>
            <Typography.Paragraph type="secondary" className="lr-hint">
              {t('hours.weekHint')}
            </Typography.Paragraph>
            <div className="lr-hours-week">
              {days.map((day, d) => (
                <Form.List name={['week', d]} key={day}>
                  {(fields, { add, remove }) => (
                    <div className="lr-hours-day" data-testid={`hours-day-${d}`}>
                      <Typography.Text strong className="lr-hours-day-name">
                        {day}
                      </Typography.Text>
                      <Space direction="vertical" size={4} className="lr-hours-shifts">
                        {fields.length === 0 && <Tag>{t('hours.dayOff')}</Tag>}
                        {fields.map((field, i) => (
                          <Space key={field.key} size={4} align="start" wrap>
                            <Form.Item
                              name={[field.name, 'from']}
                              rules={[zodRule(shift.from)]}
                              normalize={padHour}
                              className="lr-hours-time"
                            >
                              <Input
                                inputMode="numeric"
                                placeholder="09:00"
                                maxLength={5}
                                autoComplete="off"
                                aria-label={t('hours.from', { day, n: i + 1 })}
                              />
                            </Form.Item>
                            <span className="lr-hours-dash">–</span>
                            <Form.Item
                              name={[field.name, 'to']}
                              rules={[zodRule(shift.to)]}
                              normalize={padHour}
                              className="lr-hours-time"
                            >
                              <Input
                                inputMode="numeric"
                                placeholder="18:00"
                                maxLength={5}
                                autoComplete="off"
                                aria-label={t('hours.to', { day, n: i + 1 })}
                              />
                            </Form.Item>
                            <Button
                              type="text"
                              icon={<DeleteOutlined aria-hidden />}
                              aria-label={t('hours.removeShift', { day, n: i + 1 })}
                              onClick={() => remove(field.name)}
                            />
                          </Space>
                        ))}
                        {fields.length < 6 && (
                          <Button
                            size="small"
                            type="dashed"
                            icon={<PlusOutlined aria-hidden />}
                            aria-label={t('hours.addShiftOn', { day })}
                            onClick={() => add({ from: '09:00', to: '18:00' })}
                          >
                            {t('hours.addShift')}
                          </Button>
                        )}
                      </Space>
                    </div>
                  )}
                </Form.List>
              ))}
            </div>
            <Form.Item
              name="daysOff"
              label={t('hours.daysOff')}
              extra={t('hours.daysOffHint')}
              rules={[zodRule(ZWorkingHours.shape.daysOff)]}
            >
              <Select mode="tags" tokenSeparators={[',', ' ']} open={false} aria-label={t('hours.daysOff')} />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}
