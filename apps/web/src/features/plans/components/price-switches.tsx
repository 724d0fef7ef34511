import type { CurrencyName } from '@leadrelay/shared';
import { Segmented, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CurrencyRates } from '../../../lib/currency';
import { intlLocale } from '../../../lib/format';
import type { Period } from './plan-card';

interface Props {
  period: Period;
  onPeriod: (p: Period) => void;
  currency: CurrencyName;
  onCurrency: (c: CurrencyName) => void;
  rates: CurrencyRates | undefined;
}

/** The bank's rate date (YYYY-MM-DD) as a date, the same in every time zone; '' for anything else. */
const rateDay = (day: string) => {
  const date = new Date(`${day.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
};

/** The monthly/annual and USD/UAH switches, with where the hryvnia figures come from. */
export function PriceSwitches({ period, onPeriod, currency, onCurrency, rates }: Props) {
  const { t } = useTranslation('plans');
  const day = rates?.source !== 'fallback' && rates?.rateDate ? rateDay(rates.rateDate) : '';
  return (
    <div className="lr-plan-switches">
      <div className="lr-plan-switch-row">
        <Segmented<Period>
          aria-label={t('period.label')}
          value={period}
          onChange={onPeriod}
          options={[
            { value: 'monthly', label: t('period.monthly') },
            { value: 'annual', label: t('period.annual') },
          ]}
        />
        <Segmented<CurrencyName>
          aria-label={t('currency.label')}
          value={currency}
          onChange={onCurrency}
          options={[
            { value: 'USD', label: t('currency.USD') },
            { value: 'UAH', label: t('currency.UAH') },
          ]}
        />
      </div>
      {currency === 'UAH' && rates && (
        <Typography.Text type="secondary" className="lr-plan-rate-note">
          {day ? t('currency.rateNote', { date: day }) : t('currency.rateNoteUndated')}
        </Typography.Text>
      )}
    </div>
  );
}
