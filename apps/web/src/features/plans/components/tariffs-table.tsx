import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { formatPrice, type Plan } from '@leadrelay/shared';
import { Button, Popconfirm, Space, Switch, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { limitTexts, planTitle } from './plan-texts';

interface Props {
  plans: Plan[];
  loading: boolean;
  mobile: boolean;
  toggling: string[];
  onToggle: (plan: Plan) => void;
  onEdit: (plan: Plan) => void;
  onDelete: (plan: Plan) => Promise<void>;
}

const usd = (amount: number) => formatPrice(amount, 'USD', 1);

/** Super-admin: every plan, as the API sorts them; a table on a desktop, cards on a phone. */
export function TariffsTable({ plans, loading, mobile, toggling, onToggle, onEdit, onDelete }: Props) {
  const { t, i18n } = useTranslation('plans');
  const name = (p: Plan) => planTitle(p, i18n.language);

  const titleOf = (p: Plan) => (
    <>
      <Typography.Text strong className="lr-break">
        {p.title.uk}
      </Typography.Text>
      <br />
      <Typography.Text type="secondary" className="lr-break">
        {p.title.en}
      </Typography.Text>
    </>
  );
  const limitsOf = (p: Plan) => (
    <ul className="lr-tariff-limits">
      {limitTexts(p.limits, t).map((l) => (
        <li key={l.key}>{l.text}</li>
      ))}
    </ul>
  );
  const toggle = (p: Plan) => (
    <Switch
      checked={p.active}
      loading={toggling.includes(p._id)}
      aria-label={t('tariffs.toggleFor', { title: name(p) })}
      onChange={() => onToggle(p)}
    />
  );
  const actions = (p: Plan) => (
    <Space size={4}>
      <Button
        type="text"
        icon={<EditOutlined aria-hidden />}
        aria-label={t('tariffs.editFor', { title: name(p) })}
        onClick={() => onEdit(p)}
      />
      <Popconfirm
        title={t('tariffs.deleteConfirm', { title: name(p) })}
        description={t('tariffs.deleteHint')}
        okText={t('tariffs.deleteOk')}
        okButtonProps={{ danger: true }}
        onConfirm={() => onDelete(p)}
      >
        <Button
          type="text"
          danger
          icon={<DeleteOutlined aria-hidden />}
          aria-label={t('tariffs.deleteFor', { title: name(p) })}
        />
      </Popconfirm>
    </Space>
  );

  if (mobile) {
    if (!loading && plans.length === 0) return <Typography.Text type="secondary">{t('tariffs.empty')}</Typography.Text>;
    return (
      <ul className="lr-tariff-cards">
        {plans.map((p) => (
          <li key={p._id} className="lr-tariff-card" data-testid={`tariff-${p._id}`}>
            <div className="lr-tariff-card-head">
              <div>{titleOf(p)}</div>
              {actions(p)}
            </div>
            <div>
              {t('tariffs.columns.monthly')}: <strong>{usd(p.monthlyAmount)}</strong> · {t('tariffs.columns.annual')}:{' '}
              <strong>{usd(p.annualAmount)}</strong>
            </div>
            {limitsOf(p)}
            <div className="lr-tariff-card-foot">
              <Typography.Text type="secondary">{t('tariffs.columns.active')}</Typography.Text>
              {toggle(p)}
            </div>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Table<Plan>
      rowKey="_id"
      size="middle"
      loading={loading}
      dataSource={plans}
      pagination={false}
      scroll={{ x: 760 }}
      locale={{ emptyText: t('tariffs.empty') }}
      onRow={(p) => ({ 'data-testid': `tariff-${p._id}` }) as React.HTMLAttributes<HTMLElement>}
      columns={[
        { title: t('tariffs.columns.title'), key: 'title', render: (_v, p) => titleOf(p) },
        {
          title: t('tariffs.columns.monthly'),
          dataIndex: 'monthlyAmount',
          width: 110,
          align: 'right',
          render: (a: number) => usd(a),
        },
        {
          title: t('tariffs.columns.annual'),
          dataIndex: 'annualAmount',
          width: 110,
          align: 'right',
          render: (a: number) => usd(a),
        },
        { title: t('tariffs.columns.limits'), key: 'limits', width: 280, render: (_v, p) => limitsOf(p) },
        {
          title: t('tariffs.columns.active'),
          key: 'active',
          width: 120,
          render: (_v, p) => (
            <Space size={8}>
              {toggle(p)}
              {!p.active && <Tag>{t('tariffs.inactive')}</Tag>}
            </Space>
          ),
        },
        { title: t('tariffs.columns.actions'), key: 'actions', width: 100, render: (_v, p) => actions(p) },
      ]}
    />
  );
}
