import { Typography } from 'antd';
import { CurrencySwitch } from './currency-switch';
import './billing.css';

/** The head of a page about money: its title and intro, and the USD/UAH switch on the right. */
export function MoneyPageHead({ title, intro }: { title: string; intro: string }) {
  return (
    <div className="lr-money-head">
      <div>
        <Typography.Title level={2} className="lr-page-title">
          {title}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{intro}</Typography.Paragraph>
      </div>
      <CurrencySwitch />
    </div>
  );
}
