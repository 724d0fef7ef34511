// A source's CRM stages back to the ad platform (issue 33; docs/api.md "CRM stages back to Meta"),
// for a source whose manifest declares `conversions`: one switch and the dataset (pixel) the events
// go to, from the ad accounts its connection reaches; the event names folded away (the defaults need
// no set-up); a hold said with what to do. No connector is named here.
import './conversions.css';
import type { ConversionDataset, ConversionEvents, ConversionSettings, Integration } from '@leadrelay/shared';
import { Alert, Button, Card, Collapse, Form, Select, Skeleton, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  useConversionDatasetsQuery,
  useConversionSettingsQuery,
  useSaveConversionsMutation,
} from '../../lib/conversions/queries';
import { errorMessage, translateCode } from '../../lib/errors';
import { HttpError } from '../../lib/http';
import { reasonText } from '../../lib/integrations/reasons';
import { localePath } from '../../lib/locale';
import { useApp } from '../../lib/use-app';
import { PermissionGuard } from '../permission-guard';
import { problemsOf } from './event-names';
import { EventNamesEditor } from './event-names-editor';

interface Props {
  integration: Integration;
  /** The connector's folder: its connections page. */
  slug: string;
  /** The manifest's `conversions`: the brand the events go to, the datasets' failures connecting again mends. */
  conversions: { to: string; reconnect: readonly string[] };
}

type Draft = Pick<ConversionSettings, 'enabled' | 'datasetId' | 'events'>;

/** The datasets grouped by the ad accounts that share them (a dataset is listed once). */
function datasetOptions(datasets: readonly ConversionDataset[], none: string) {
  const groups = new Map<string, { value: string; label: string; id: string }[]>();
  for (const d of datasets) {
    const owners = d.adAccounts.map((a) => a.name || a.id).join(', ') || none;
    groups.set(owners, [...(groups.get(owners) ?? []), { value: d.id, label: d.name || d.id, id: d.id }]);
  }
  return [...groups].map(([label, options]) => ({ label, title: label, options }));
}

export function ConversionsCard({ integration, slug, conversions }: Props) {
  const { to } = conversions;
  const { t } = useTranslation('integrations');
  const { message } = useApp();
  const settings = useConversionSettingsQuery(integration._id);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [tried, setTried] = useState(false);
  const save = useSaveConversionsMutation(integration._id);
  const current: Draft | undefined = draft ?? settings.data;
  const datasets = useConversionDatasetsQuery(
    integration._id,
    Boolean(current && (current.enabled || current.datasetId)),
  );

  const title = (
    <span className="lr-capi-title">
      {t('conversions.title', { to })}
      {settings.data && (
        <Tag color={settings.data.enabled ? 'success' : 'default'} data-testid="capi-state">
          {settings.data.enabled ? t('conversions.on') : t('conversions.off')}
        </Tag>
      )}
    </span>
  );
  if (settings.isPending) {
    return (
      <Card title={title}>
        <Skeleton active />
      </Card>
    );
  }
  if (settings.isError || !current) {
    return (
      <Card title={title}>
        <Alert type="error" showIcon title={errorMessage(settings.error)} />
      </Card>
    );
  }

  const change = (patch: Partial<Draft>) => setDraft({ ...current, ...patch });
  const problems = problemsOf(current);
  // Said at once: saving stays off until a dataset is chosen.
  const datasetProblem = problems.get('dataset');
  const datasetsCode = datasets.error instanceof HttpError ? datasets.error.code : '';
  // The connection gone, or a failure the connector says connecting again mends.
  const reconnect = datasetsCode === 'INTEGRATION_NOT_CONNECTED' || conversions.reconnect.includes(datasetsCode);
  const known = datasets.data?.some((d) => d.id === current.datasetId);
  const options = [
    ...datasetOptions(datasets.data ?? [], t('conversions.noAdAccount')),
    // The stored one while the list is not in (or no longer has it): its id.
    ...(current.datasetId && !known
      ? [{ value: current.datasetId, label: current.datasetId, id: current.datasetId }]
      : []),
  ];

  const onSave = async () => {
    setTried(true);
    const general = problems.get('form');
    if (general) void message.error(translateCode(general));
    if (problems.size) return;
    try {
      await save.mutateAsync({ enabled: current.enabled, datasetId: current.datasetId, events: current.events });
      setDraft(null);
      setTried(false);
      void message.success(t('conversions.saved'));
    } catch (err) {
      const fields = err instanceof HttpError ? err.errors.map((e) => translateCode(e.code)) : [];
      void message.error([errorMessage(err), ...fields].join(': '));
    }
  };

  return (
    <Card title={title} data-testid="conversions-card">
      <Typography.Paragraph type="secondary">{t('conversions.intro', { to })}</Typography.Paragraph>
      {settings.data?.heldReason && (
        <Alert
          type="warning"
          showIcon
          className="lr-mb"
          data-testid="capi-held"
          title={t('conversions.held.title', { to })}
          description={
            <>
              <div className="lr-break">{reasonText(settings.data.heldReason)}</div>
              <div>{t('conversions.held.hint')}</div>
            </>
          }
        />
      )}
      <Form layout="vertical" component="div">
        <Form.Item label={t('conversions.enabled', { to })} extra={t('conversions.enabledHint')}>
          <Switch
            checked={current.enabled}
            aria-label={t('conversions.enabled', { to })}
            onChange={(enabled) => change({ enabled })}
          />
        </Form.Item>
        <Form.Item
          label={t('conversions.dataset')}
          required={current.enabled}
          validateStatus={datasetProblem ? 'error' : undefined}
          help={datasetProblem ? translateCode(datasetProblem) : undefined}
          extra={t('conversions.datasetHint', { to })}
        >
          <Select
            aria-label={t('conversions.dataset')}
            value={current.datasetId ?? undefined}
            placeholder={t('conversions.datasetPlaceholder')}
            loading={datasets.isFetching}
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            notFoundContent={datasets.isSuccess ? t('conversions.noDatasets', { to }) : undefined}
            onChange={(id: string | undefined) => change({ datasetId: id ?? null })}
            options={options}
            // In the list, each with its id under its name (two datasets may share a name).
            optionRender={(option) => (
              <span className="lr-capi-option">
                <span className="lr-break">{option.label}</span>
                <Typography.Text type="secondary" className="lr-capi-option-id">
                  {option.value}
                </Typography.Text>
              </span>
            )}
          />
        </Form.Item>
        {datasets.isError && (
          <Alert
            type="error"
            showIcon
            className="lr-mb"
            data-testid="capi-datasets-error"
            title={errorMessage(datasets.error)}
            description={reconnect ? t('conversions.reconnectHint', { to }) : undefined}
            action={
              reconnect ? (
                <Link to={localePath(`/admin/integrations/${slug}`)}>{t('conversions.reconnect')}</Link>
              ) : (
                <Button size="small" onClick={() => void datasets.refetch()}>
                  {t('conversions.retry')}
                </Button>
              )
            }
          />
        )}
      </Form>
      <Collapse
        className="lr-mb"
        size="small"
        items={[
          {
            key: 'events',
            label: t('conversions.events.title'),
            children: (
              <EventNamesEditor
                source={integration}
                value={current.events}
                onChange={(events: ConversionEvents) => change({ events })}
                problems={tried ? problems : new Map()}
              />
            ),
          },
        ]}
      />
      <PermissionGuard>
        <Button
          type="primary"
          loading={save.isPending}
          disabled={!draft || (current.enabled && !current.datasetId)}
          onClick={() => void onSave()}
        >
          {t('conversions.save')}
        </Button>
      </PermissionGuard>
    </Card>
  );
}
