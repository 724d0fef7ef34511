import type { FormCard } from '@leadrelay/connectors/manifest';
import { Button, Card, Form } from 'antd';
import { errorMessage, translateCode } from '../../lib/errors';
import { PermissionGuard } from '../permission-guard';
import { FormItems, fieldsOf, initialValues, outputValues } from './fields';
import { formPath, serverFieldErrors } from './server-errors';
import { type CardProps, useSettingsForm, type Values } from './use-settings-form';

/**
 * A connector's settings drawn from its field specs: checked field by field on the spot, then as a
 * whole with the shared schema (a missing template, an unknown placeholder), then by the server,
 * whose field errors go onto the fields too. Saved over the integration's other settings.
 */
export function FormCardView({ integration, card, say }: CardProps<FormCard<string>>) {
  const { form, guard, connect, message, saved, toastSaved } = useSettingsForm(integration);
  const fields = fieldsOf(card.items);

  const onFinish = async () => {
    const settings = { ...saved, ...outputValues(fields, form.getFieldsValue(true) as Values) };
    const parsed = card.schema?.safeParse(JSON.parse(JSON.stringify(settings)));
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
      await connect.mutateAsync({ settings: JSON.parse(JSON.stringify(settings)) });
      guard.saved();
      toastSaved();
    } catch (err) {
      const found = serverFieldErrors(err, fields);
      form.setFields(found.fields as never);
      void message.error(found.elsewhere && card.elsewhere ? say(card.elsewhere) : errorMessage(err));
    }
  };

  return (
    <Card title={say(card.title)}>
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
            <Button type="primary" htmlType="submit" loading={connect.isPending}>
              {say(card.save)}
            </Button>
          </PermissionGuard>
        </div>
      </Form>
    </Card>
  );
}
