import { Button, Card, Col, Empty, Row, Skeleton } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MoneyPageHead } from '../../../components/billing/money-page-head';
import { usePrice } from '../../../lib/currency';
import { errorMessage } from '../../../lib/errors';
import { usePageSize } from '../../../lib/query-behaviours';
import { ReferralLink } from '../components/referral-link';
import { ReferralTotals } from '../components/referral-totals';
import { ReferredList } from '../components/referred-list';
import { useReferralsQuery } from '../queries';
import '../components/referral.css';

/** /admin/referral: the link to share (copy, QR), the reward rule, totals and the referred accounts. */
export function ReferralPage() {
  const { t } = useTranslation('referral');
  const price = usePrice();
  const [limit, setLimit] = usePageSize();
  const [page, setPage] = useState(1);
  const query = useReferralsQuery(page, limit);
  const data = query.data;

  return (
    <div className="lr-page">
      <MoneyPageHead title={t('page.title')} intro={t('page.intro')} />
      {query.isPending ? (
        <Card>
          <Skeleton active />
        </Card>
      ) : !data ? (
        <Card>
          <Empty description={errorMessage(query.error)}>
            <Button onClick={() => void query.refetch()}>{t('page.retry')}</Button>
          </Empty>
        </Card>
      ) : (
        <>
          <Row gutter={[16, 16]} className="lr-referral-top">
            <Col xs={24} lg={14}>
              <ReferralLink link={data.link} code={data.code} />
            </Col>
            <Col xs={24} lg={10}>
              <ReferralTotals
                earned={data.earned}
                credit={data.credit}
                invited={data.total}
                rewardShare={data.rewardShare}
                price={price}
              />
            </Col>
          </Row>
          <ReferredList
            data={data.data}
            total={data.total}
            loading={query.isFetching && query.isPlaceholderData}
            price={price}
            pagination={{
              current: page,
              pageSize: limit,
              total: data.total,
              onChange: (p, size) => {
                if (size !== limit) {
                  setLimit(size);
                  setPage(1);
                } else setPage(p);
              },
            }}
          />
        </>
      )}
    </div>
  );
}
