// The stage → event mapping (issue 33): the initial event's name, then, per pipeline of a CRM that
// tells us of stage changes, each stage's event name (empty: the stage's own name) or "don't send".
// The CRMs are the account's destinations whose page shows a stage watch; their pipelines are read
// as their own pipeline field reads them (lib/connectors/pipelines.ts). No connector is named here.
import type { Pipeline } from '@leadrelay/connectors/manifest';
import {
  CONVERSION_ANY_PIPELINE,
  CONVERSION_INITIAL_EVENT,
  CONVERSION_INITIAL_STAGE,
  type ConversionEvents,
  type Integration,
} from '@leadrelay/shared';
import { useQueries } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Form, Input, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadManifest } from '../../lib/connectors/manifests';
import { pipelineSourceOf, reportsStages } from '../../lib/connectors/pipelines';
import { useConnectorList } from '../../lib/connectors/queries';
import { errorMessage, translateCode } from '../../lib/errors';
import { useAllIntegrationsQuery } from '../../lib/integrations/queries';
import { entryKey, entryOf, initialEntry, ownPipelines, withEntry, withInitial, withoutPipeline } from './event-names';

interface Props {
  /** The source: its own destinations come first among the CRMs. */
  source: Integration;
  value: ConversionEvents;
  onChange: (events: ConversionEvents) => void;
  /** By entryKey, the error code of a refused name. */
  problems: ReadonlyMap<string, string>;
}

/** An input's text as an entry: blank is the default. */
const typed = (text: string): string | undefined => (text.trim() === '' ? undefined : text);

/** One stage's row: its event name (placeholder: the default) and "don't send". */
function NameRow(props: {
  label: string;
  placeholder: string;
  entry: string | null | undefined;
  onEntry: (entry: string | null | undefined) => void;
  problem: string | undefined;
  testId: string;
}) {
  const { t } = useTranslation('integrations');
  const { label, placeholder, entry, onEntry, problem, testId } = props;
  const skipped = entry === null;
  return (
    <div className="lr-capi-row" data-testid={testId}>
      {/* The stage, and beside it "don't send": on a phone too, the row keeps to two lines. */}
      <div className="lr-capi-row-head">
        <span className="lr-break">{label}</span>
        <Checkbox checked={skipped} onChange={(e) => onEntry(e.target.checked ? null : undefined)}>
          {t('conversions.events.skip')}
        </Checkbox>
      </div>
      <Form.Item
        className="lr-capi-name"
        validateStatus={problem ? 'error' : undefined}
        help={problem ? translateCode(problem) : undefined}
      >
        <Input
          value={skipped ? '' : (entry ?? '')}
          placeholder={skipped ? t('conversions.events.notSent') : placeholder}
          disabled={skipped}
          maxLength={100}
          aria-label={t('conversions.events.nameFor', { stage: label })}
          onChange={(e) => onEntry(typed(e.target.value))}
        />
      </Form.Item>
    </div>
  );
}

/** The account's destinations whose CRM tells us of stage changes and has pipelines, the source's first. */
function useStageCrms(source: Integration) {
  const all = useAllIntegrationsQuery();
  const destinations = (all.data ?? []).filter((i) => i.kind === 'destination');
  const types = [...new Set(destinations.map((i) => i.type))];
  const manifests = useQueries({
    queries: types.map((type) => ({
      queryKey: ['connector-manifest', type],
      queryFn: () => loadManifest(type),
      staleTime: Number.POSITIVE_INFINITY,
    })),
  });
  const byType = new Map(types.map((type, i) => [type, manifests[i]?.data]));
  const mine = new Set(source.destination.map((d) => d._id));
  const crms = destinations
    .flatMap((i) => {
      const manifest = byType.get(i.type);
      const pipelines = manifest && reportsStages(manifest) ? pipelineSourceOf(manifest, i.settings) : null;
      return pipelines ? [{ integration: i, pipelines }] : [];
    })
    .sort((a, b) => Number(mine.has(b.integration._id)) - Number(mine.has(a.integration._id)));
  return { crms, isPending: all.isPending || manifests.some((m) => m.isPending) };
}

export function EventNamesEditor({ source, value, onChange, problems }: Props) {
  const { t } = useTranslation('integrations');
  const { crms, isPending } = useStageCrms(source);
  const [crmId, setCrmId] = useState<string>();
  const crm = crms.find((c) => c.integration._id === crmId) ?? crms[0];
  const list = useConnectorList(crm?.integration ?? source, crm?.pipelines.list);
  const pipelines: readonly Pipeline[] = crm && list.data !== undefined ? crm.pipelines.read(list.data) : [];
  const [pipelineId, setPipelineId] = useState<string>();
  const pipeline =
    pipelines.find((p) => String(p.id) === pipelineId) ??
    (pipelineId === undefined ? (pipelines.find((p) => p.main) ?? pipelines[0]) : undefined);
  const own = ownPipelines(value);
  const nameOf = (id: string) => pipelines.find((p) => String(p.id) === id)?.name ?? id;

  return (
    <Form layout="vertical" component="div" className="lr-capi-events">
      <Typography.Paragraph type="secondary">
        {t('conversions.events.hint', { lead: CONVERSION_INITIAL_EVENT })}
      </Typography.Paragraph>
      <NameRow
        label={t('conversions.events.initial')}
        placeholder={CONVERSION_INITIAL_EVENT}
        entry={initialEntry(value)}
        onEntry={(entry) => onChange(withInitial(value, entry))}
        problem={problems.get(entryKey(CONVERSION_ANY_PIPELINE, CONVERSION_INITIAL_STAGE))}
        testId="capi-initial"
      />

      <Typography.Title level={5} className="lr-capi-subtitle">
        {t('conversions.events.pipelines')}
      </Typography.Title>
      {isPending ? null : crms.length === 0 ? (
        <Typography.Paragraph type="secondary">{t('conversions.events.noCrm')}</Typography.Paragraph>
      ) : (
        <>
          <div className="lr-capi-pickers">
            <Form.Item label={t('conversions.events.crm')}>
              <Select
                aria-label={t('conversions.events.crm')}
                value={crm?.integration._id}
                onChange={(id: string) => {
                  setCrmId(id);
                  setPipelineId(undefined);
                }}
                options={crms.map((c) => ({ value: c.integration._id, label: c.integration.name }))}
              />
            </Form.Item>
            <Form.Item label={t('conversions.events.pipeline')}>
              <Select
                aria-label={t('conversions.events.pipeline')}
                value={pipeline ? String(pipeline.id) : undefined}
                placeholder={t('conversions.events.pipelinePlaceholder')}
                loading={list.isFetching}
                disabled={!crm?.integration.isConnected}
                onChange={(id: string) => setPipelineId(id)}
                options={pipelines.map((p) => ({ value: String(p.id), label: p.name }))}
              />
            </Form.Item>
          </div>
          {crm && !crm.integration.isConnected && (
            <Typography.Paragraph type="secondary">{t('conversions.events.notConnected')}</Typography.Paragraph>
          )}
          {list.isError && (
            <Alert
              type="error"
              showIcon
              className="lr-mb"
              title={t('conversions.events.listFailed')}
              description={errorMessage(list.error)}
              action={
                <Button size="small" onClick={() => void list.refetch()}>
                  {t('conversions.retry')}
                </Button>
              }
            />
          )}
          {pipeline && (
            <div data-testid="capi-stages">
              {pipeline.stages.map((stage) => {
                const p = String(pipeline.id);
                const s = String(stage.id);
                return (
                  <NameRow
                    key={s}
                    label={stage.name}
                    placeholder={stage.name}
                    entry={entryOf(value, p, s)}
                    onEntry={(entry) => onChange(withEntry(value, p, s, entry))}
                    problem={problems.get(entryKey(p, s))}
                    testId="capi-stage"
                  />
                );
              })}
            </div>
          )}
        </>
      )}
      {own.length > 0 && (
        <div className="lr-capi-own" data-testid="capi-own">
          <Typography.Text type="secondary">{t('conversions.events.own')}</Typography.Text>
          <Space wrap size={[8, 8]}>
            {own.map((id) => (
              <Button key={id} size="small" onClick={() => onChange(withoutPipeline(value, id))}>
                {t('conversions.events.reset', { name: nameOf(id) })}
              </Button>
            ))}
          </Space>
        </div>
      )}
    </Form>
  );
}
