import type { Field, FormCard } from '@leadrelay/connectors/manifest';
import type { ConnectionCheck } from '@leadrelay/shared';
import { Button, Card, Form } from 'antd';
import type { ReactNode } from 'react';
import { useConnectorLists } from '../../lib/connectors/queries';
import { errorMessage, translateCode } from '../../lib/errors';
import { reasonText } from '../../lib/integrations/reasons';
import { PermissionGuard } from '../permission-guard';
import { DataCard } from './data-card';
import { fieldsOf, withoutEmpty } from './field-values';
import { FormItems, initialValues, outputValues } from './fields';
import { ListsContext } from './list-fields';
import { formPath, serverFieldErrors } from './server-errors';
import { type CardProps, useSettingsForm, type Values } from './use-settings-form';

/** The loaders a card's fields read (a group's fields too). */
function listsOf(fields: readonly Field<string>[]): string[] {
  const lists = fields.flatMap((f): string[] => {
    if (f.kind === 'list-select') return [f.list];
    if (f.kind === 'pipeline-stage') return typeof f.list === 'string' ? [f.list] : f.list.lists.map((l) => l.list);
    if (f.kind === 'group') return listsOf(f.items);
    return [];
  });
  return [...new Set(lists)];
}

/** Per list, the saved values of the settings its loader reads (`dependsOn`), as one key. */
function variantsOf(fields: readonly Field<string>[], saved: unknown): Map<string, string> {
  const settings = (saved ?? {}) as Record<string, unknown>;
  const out = new Map<string, string>();
  const visit = (items: readonly Field<string>[]) => {
    for (const f of items) {
      if (f.kind === 'group') visit(f.items);
      if (f.kind === 'list-select' && f.dependsOn?.length) {
        out.set(f.list, JSON.stringify(f.dependsOn.map((k) => (Object.hasOwn(settings, k) ? settings[k] : null))));
      }
    }
  };
  visit(fields);
  return out;
}

/**
 * A connector's settings drawn from its field specs: checked field by field on the spot, then as a
 * whole with the shared schema (a missing template, an unknown placeholder), then by the server,
 * whose field errors go onto the fields too. Saved over the integration's other settings. A card
 * whose fields read loaders shows once they have answered (DataCard).
 */
export function FormCardView(props: CardProps<FormCard<string>>) {
  const { integration, card } = props;
  const fields = fieldsOf(card.items);
  const lists = listsOf(fields);
  const answers = useConnectorLists(integration, lists, variantsOf(fields, integration.settings));
  if (!lists.length) return <Card title={props.say(card.title)}>{<SettingsForm {...props} />}</Card>;
  return (
    <DataCard integration={integration} title={props.say(card.title)} queries={answers}>
      <ListsContext.Provider value={new Map(lists.map((list, i) => [list, answers[i]?.data]))}>
        <SettingsForm {...props} />
      </ListsContext.Provider>
    </DataCard>
  );
}

function SettingsForm({ integration, card, say }: CardProps<FormCard<string>>): ReactNode {
  const { form, guard, save, message, saved, toastSaved } = useSettingsForm(integration);
  const fields = fieldsOf(card.items);

  const afterSave = (result: ConnectionCheck) => {
    guard.saved();
    if (card.saved) void message.success(say(card.saved));
    else toastSaved();
    if (card.checkFailed && !result.ok && result.reason)
      void message.warning(`${say(card.checkFailed)}: ${reasonText(result.reason)}`);
  };

  const onFinish = async () => {
    const merged = { ...saved, ...outputValues(fields, form.getFieldsValue(true) as Values) };
    const settings = JSON.parse(JSON.stringify(card.omitEmpty ? withoutEmpty(merged) : merged));
    const parsed = card.schema?.safeParse(settings);
    if (parsed && !parsed.success) {
      form.setFields(
        parsed.error.issues.flatMap((i) => {
          const name = formPath(i.path, fields);
          return name ? [{ name, errors: [translateCode(i.message)] }] : [];
        }) as never,
      );
      return;
    }
    try {
      afterSave(await save.mutateAsync({ settings }));
    } catch (err) {
      const found = serverFieldErrors(err, fields);
      form.setFields(found.fields as never);
      void message.error(found.elsewhere && card.elsewhere ? say(card.elsewhere) : errorMessage(err));
    }
  };

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={onFinish}
      onValuesChange={guard.onValuesChange}
      initialValues={initialValues(fields, saved, say)}
    >
      <FormItems items={card.items} say={say} />
      <div className="lr-actions">
        <PermissionGuard>
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {say(card.save)}
          </Button>
        </PermissionGuard>
      </div>
    </Form>
  );
}
