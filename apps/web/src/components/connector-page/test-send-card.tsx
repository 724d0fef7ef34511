import { SendOutlined } from '@ant-design/icons';
import type { ActionReport, TestSendCard } from '@leadrelay/connectors/manifest';
import { type Integration, ownValue, setOwn } from '@leadrelay/shared';
import { Alert, Button, Card, Collapse, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useConnectorAction } from '../../lib/connectors/queries';
import { errorMessage } from '../../lib/errors';
import { useApp } from '../../lib/use-app';
import { reasonText } from '../integrations/status-tag';
import { type Say, valueWord } from './words';

type Values = Record<string, unknown>;

interface Props {
  integration: Integration;
  slug: string;
  card: TestSendCard<string, string>;
  say: Say;
}

/** The typed fields as a lead ({ name, utm: { source }, custom: { _ga } }), or null when none is typed. */
function leadOf(card: TestSendCard<string, string>, form: Values): Values | null {
  const lead: Values = {};
  for (const field of card.fields) {
    const path = field.path.split('.');
    const value = path.reduce<unknown>((node, key) => ownValue(node, key), form);
    if (typeof value !== 'string' || !value.trim()) continue;
    let node = lead;
    for (const key of path.slice(0, -1)) {
      if (!Object.hasOwn(node, key)) setOwn<unknown>(node, key, {});
      node = ownValue(node, key) as Values;
    }
    setOwn<unknown>(node, path.at(-1) as string, value.trim());
  }
  return Object.keys(lead).length ? lead : null;
}

/**
 * "Send a test lead": the fields typed (or the connector's own sample lead) go to a connector action
 * that checks what a lead would become (nothing is recorded); what is wrong is listed in the user's
 * language, the service's own sentence under it, and what would be sent under a fold.
 */
export function TestSendCardView({ integration, slug, card, say }: Props) {
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const [report, setReport] = useState<ActionReport | null>(null);
  const send = useConnectorAction(integration._id, card.action);

  const onFinish = async (values: Values) => {
    const lead = leadOf(card, values);
    try {
      setReport(card.report(await send.mutateAsync(lead ? { lead } : {})));
    } catch (err) {
      setReport(null);
      void message.error(errorMessage(err));
    }
  };

  const problems = report ? report.issues.length + report.messages.length : 0;
  return (
    <Card title={say(card.title)}>
      <Typography.Paragraph type="secondary" className="lr-hint">
        {say(card.hint)}
      </Typography.Paragraph>
      <Form<Values> form={form} layout="vertical" requiredMark={false} onFinish={onFinish}>
        <div className="lr-form-row">
          {card.fields.map((f) => (
            <Form.Item key={f.path} name={f.path.split('.')} label={say(f.label)}>
              <Input
                placeholder={f.placeholder ? say(f.placeholder) : f.example}
                maxLength={f.maxLength}
                inputMode={f.inputMode}
                className={f.mono ? 'lr-mono' : undefined}
              />
            </Form.Item>
          ))}
        </div>
        <Button
          type="primary"
          htmlType="submit"
          icon={<SendOutlined aria-hidden />}
          loading={send.isPending}
          disabled={!integration.isConnected}
        >
          {say(card.send)}
        </Button>
      </Form>
      {report && (
        <div className="lr-mt" data-testid="test-send-result">
          {report.ok ? (
            <Alert
              type="success"
              showIcon
              role="status"
              title={say(card.words.ok)}
              description={say(card.words.okHint)}
            />
          ) : (
            <Alert
              type="error"
              showIcon
              role="status"
              title={say(card.words.failed, { count: problems })}
              description={
                <ul className="lr-report-lines">
                  {report.issues.map((i) => (
                    <li key={`${i.code}-${i.path}`}>
                      {reasonText(i.code)}
                      {i.path && (
                        <>
                          {' '}
                          <Typography.Text code>{i.path}</Typography.Text>
                        </>
                      )}
                    </li>
                  ))}
                  {report.messages.map((m) => (
                    <li key={`${m.code}|${m.path}|${m.text}`}>
                      {valueWord(slug, card.words.codes, m.code) ?? m.code}
                      {m.path && (
                        <>
                          {' '}
                          <Typography.Text code>{m.path}</Typography.Text>
                        </>
                      )}
                      {m.text && (
                        <div>
                          <Typography.Text type="secondary">{say(card.words.said, { text: m.text })}</Typography.Text>
                        </div>
                      )}
                    </li>
                  ))}
                </ul>
              }
            />
          )}
          <Collapse
            className="lr-mt"
            size="small"
            items={[
              {
                key: 'payload',
                label: say(card.words.payload),
                children: <pre className="lr-report-payload">{JSON.stringify(report.payload, null, 2)}</pre>,
              },
            ]}
          />
        </div>
      )}
    </Card>
  );
}
