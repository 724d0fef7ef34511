import { type AccountPatchBody, LOCALES, type User, ZAccountPatchBody } from '@leadrelay/shared';
import { Button, Card, Form, Input, Select } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/errors';
import { applyServerErrors, zodRule } from '../../../lib/form';
import { currentLocale, switchLanguage } from '../../../lib/locale';
import { zoneMatches, zoneOptions } from '../../../lib/time-zones';
import { useFormGuard } from '../../../lib/unsaved-changes';
import { useApp } from '../../../lib/use-app';
import { useUpdateProfileMutation } from '../queries';

export function ProfileForm({ user }: { user: User }) {
  const { t } = useTranslation('account');
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const [form] = Form.useForm<AccountPatchBody>();
  const guard = useFormGuard();
  const update = useUpdateProfileMutation();
  const zones = useMemo(() => zoneOptions(user.timeZone), [user.timeZone]);

  const onFinish = async (values: AccountPatchBody) => {
    try {
      const saved = await update.mutateAsync(ZAccountPatchBody.parse(values));
      guard.saved();
      void message.success(tc('saved'));
      if (saved.lang !== currentLocale()) switchLanguage(saved.lang);
    } catch (err) {
      if (!applyServerErrors(form, err)) void message.error(errorMessage(err));
    }
  };

  const { shape } = ZAccountPatchBody;
  return (
    <Card title={t('profile.title')}>
      <Form
        form={form}
        layout="vertical"
        initialValues={{
          name: user.name,
          phone: user.phone,
          company: user.company,
          lang: user.lang,
          timeZone: user.timeZone,
        }}
        onFinish={onFinish}
        onValuesChange={guard.onValuesChange}
      >
        <Form.Item label={t('profile.login')}>
          <Input value={user.login} disabled />
        </Form.Item>
        <Form.Item name="name" label={t('profile.name')} rules={[zodRule(shape.name)]}>
          <Input autoComplete="name" />
        </Form.Item>
        <Form.Item name="phone" label={t('profile.phone')} rules={[zodRule(shape.phone)]}>
          <Input type="tel" autoComplete="tel" />
        </Form.Item>
        <Form.Item name="company" label={t('profile.company')} rules={[zodRule(shape.company)]}>
          <Input autoComplete="organization" />
        </Form.Item>
        <Form.Item name="lang" label={t('profile.lang')}>
          <Select options={LOCALES.map((l) => ({ value: l, label: tc(`language.${l}`) }))} />
        </Form.Item>
        <Form.Item
          name="timeZone"
          label={t('profile.timeZone')}
          extra={t('profile.timeZoneHint')}
          rules={[zodRule(shape.timeZone)]}
        >
          <Select showSearch options={zones} filterOption={zoneMatches} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={update.isPending}>
          {tc('save')}
        </Button>
      </Form>
    </Card>
  );
}
