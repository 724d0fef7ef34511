import '../parsers.css';
import '../../../components/integrations/integrations.css';
import { ArrowLeftOutlined, DeleteOutlined } from '@ant-design/icons';
import type { Integration, ParserMail } from '@leadrelay/shared';
import { Alert, Button, Col, Popconfirm, Result, Row, Skeleton, Tabs, Tag, Typography } from 'antd';
import { type ComponentType, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { HooksTable } from '../../../components/hooks/hooks-table';
import { MappingSection } from '../../../components/integrations/mapping-section';
import { PermissionGuard } from '../../../components/permission-guard';
import { errorMessage } from '../../../lib/errors';
import { HttpError } from '../../../lib/http';
import { useIntegrationQuery } from '../../../lib/integrations/queries';
import { localePath } from '../../../lib/locale';
import { useApp } from '../../../lib/use-app';
import { useTabParam } from '../../../lib/use-tab-param';
import { AddressCard } from '../components/address-card';
import { MailLog } from '../components/mail-log';
import { MailboxCard } from '../components/mailbox-card';
import { RulesTab } from '../components/rules-tab';
import { useDeleteParserMutation, useParserPreviewQuery, useParserQuery } from '../queries';

const TABS = ['rules', 'mail', 'mapping', 'destinations', 'log'] as const;
type TabKey = (typeof TABS)[number];

/** The parts that belong to the integrations feature (destinations, distribution), handed over by app/. */
export interface ParserPageParts {
  Destinations: ComponentType<{ integration: Integration }>;
}

/** /admin/parsers/:id: rules with the live sample preview, mail (address, mailbox), fields, destinations, mail log. */
export function ParserPage({ parts }: { parts: ParserPageParts }) {
  const { t } = useTranslation('parsers');
  const { message } = useApp();
  const navigate = useNavigate();
  const { id = '' } = useParams();
  const tab = useTabParam();
  const parser = useParserQuery(id);
  // The same row in the integrations API's shape, for the shared mapping and destination parts.
  const integration = useIntegrationQuery(parser.isSuccess ? id : undefined);
  const remove = useDeleteParserMutation();
  const [sample, setSample] = useState<string | null>(null);
  const [sampleMail, setSampleMail] = useState<ParserMail | null>(null);
  const stored = parser.data?.sample ?? '';
  const currentSample = sample ?? stored;
  // The mapping tab's sample: the payload the sample mail yields under the saved rules.
  const payload = useParserPreviewQuery(
    id,
    sampleMail ? { mailId: sampleMail._id } : { sample: currentSample },
    parser.data?.rules ?? null,
  );
  const payloadJson = useMemo(() => JSON.stringify(payload.data?.fields ?? {}, null, 2), [payload.data]);
  // An edit of the mapping tab's sample holds until the sample mail yields another payload.
  const [mappingEdit, setMappingEdit] = useState<{ base: string; text: string } | null>(null);
  const mappingSample = mappingEdit && mappingEdit.base === payloadJson ? mappingEdit.text : null;
  const setMappingSample = (text: string) => setMappingEdit({ base: payloadJson, text });

  const back = (
    <Link to={localePath('/admin/parsers')} className="lr-back">
      <ArrowLeftOutlined aria-hidden /> {t('page.back')}
    </Link>
  );
  if (parser.isPending) return <Skeleton active className="lr-page" />;
  if (parser.isError) {
    const missing = parser.error instanceof HttpError && parser.error.status === 404;
    return (
      <div className="lr-page">
        {back}
        <Result status={missing ? '404' : 'error'} title={missing ? t('page.notFound') : errorMessage(parser.error)} />
      </div>
    );
  }
  const item = parser.data;
  const tabKey = (TABS as readonly string[]).includes(tab.requested) ? (tab.requested as TabKey) : 'rules';
  const onDelete = async () => {
    try {
      await remove.mutateAsync(item._id);
      void message.success(t('page.deleted'));
      navigate(localePath('/admin/parsers'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  const useMail = (mail: ParserMail) => {
    setSampleMail(mail);
    tab.select('rules');
  };
  const Destinations = parts.Destinations;

  const items = [
    {
      key: 'rules',
      label: t('page.tabs.rules'),
      children: (
        <RulesTab
          parser={item}
          sample={currentSample}
          onSampleChange={setSample}
          sampleMail={sampleMail}
          onClearSampleMail={() => setSampleMail(null)}
        />
      ),
    },
    {
      key: 'mail',
      label: t('page.tabs.mail'),
      children: (
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={10}>
            <AddressCard parser={item} />
          </Col>
          <Col xs={24} lg={14}>
            <MailboxCard parser={item} />
          </Col>
        </Row>
      ),
    },
    {
      key: 'mapping',
      label: t('page.tabs.mapping'),
      children: integration.data ? (
        <>
          <Alert className="lr-mb" type="info" showIcon title={t('mapping.hint')} />
          <MappingSection
            integration={integration.data}
            sample={mappingSample ?? payloadJson}
            onSampleChange={setMappingSample}
            withHooks={false}
            testLead={<span />}
          />
        </>
      ) : (
        <Skeleton active />
      ),
    },
    {
      key: 'destinations',
      label: t('page.tabs.destinations', { n: item.destination.length }),
      children: integration.data ? <Destinations integration={integration.data} /> : <Skeleton active />,
    },
    {
      key: 'log',
      label: t('page.tabs.log'),
      children: (
        <Row gutter={[16, 16]}>
          <Col xs={24}>
            <MailLog parserId={item._id} onUseAsSample={useMail} />
          </Col>
          <Col xs={24}>
            <Typography.Title level={4}>{t('mails.leadsTitle')}</Typography.Title>
            <HooksTable integrationId={item._id} />
          </Col>
        </Row>
      ),
    },
  ];

  return (
    <div className="lr-page">
      {back}
      <div className="lr-page-head">
        <div className="lr-min0">
          <Typography.Title level={2} className="lr-page-title">
            {item.name}
          </Typography.Title>
          <Typography.Paragraph type="secondary" className="lr-int-subtitle">
            <Typography.Text copyable={{ text: item.address }} className="lr-parser-address-small">
              {item.address}
            </Typography.Text>
            {!item.active && <Tag>{t('list.inactive')}</Tag>}
          </Typography.Paragraph>
        </div>
        <PermissionGuard>
          <Popconfirm title={t('page.deleteConfirm')} onConfirm={onDelete} okButtonProps={{ danger: true }}>
            <Button danger icon={<DeleteOutlined aria-hidden />}>
              {t('page.delete')}
            </Button>
          </Popconfirm>
        </PermissionGuard>
      </div>
      <Tabs activeKey={tabKey} onChange={tab.select} items={items} />
    </div>
  );
}
