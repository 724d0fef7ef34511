import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCurrency } from '../../lib/currency';

/** USD or UAH for the amounts of this page: the same stored choice as the plan page's switch. */
export function CurrencySwitch() {
  const { t } = useTranslation('billing');
  const [currency, setCurrency] = useCurrency();
  return (
    <Segmented
      aria-label={t('currency.label')}
      value={currency}
      onChange={setCurrency}
      options={[
        { value: 'USD', label: t('currency.USD') },
        { value: 'UAH', label: t('currency.UAH') },
      ]}
    />
  );
}
