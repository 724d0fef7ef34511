import { UploadOutlined } from '@ant-design/icons';
import { POST_IMAGE_MAX_BYTES, type Post, ZPostText, ZPostTitle } from '@leadrelay/shared';
import type { FormRule } from 'antd';
import { Button, Form, Input, Modal, Skeleton, Typography, Upload } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage, translateCode } from '../../../lib/errors';
import { applyServerErrors, zodRule } from '../../../lib/form';
import { useApp } from '../../../lib/use-app';
import { postExcerpt } from '../post-format';
import { useCreatePostMutation, useUpdatePostMutation } from '../queries';

// The editor (tiptap and ProseMirror) loads only when staff open the form, never for readers.
const PostEditor = lazy(() => import('./post-editor').then((m) => ({ default: m.PostEditor })));

interface Props {
  /** undefined: closed; null: a new post; a post: editing its title and text. */
  post: Post | null | undefined;
  onClose: (saved?: Post) => void;
}

interface Values {
  title: string;
  text: string;
  titleEn: string;
  textEn: string;
}

/** A field with no words in it (the editor leaves `<p></p>` behind when emptied). */
const isBlank = (value: unknown) => typeof value !== 'string' || postExcerpt(value) === '';

/** The English version is optional, but whole: once either field has words, both follow their rule. */
function englishRule(schema: typeof ZPostTitle | typeof ZPostText, other: keyof Values): FormRule {
  return ({ getFieldValue }) => ({
    validator: async (_rule, value) => {
      if (isBlank(value) && isBlank(getFieldValue(other))) return;
      if (isBlank(value)) throw new Error(translateCode('REQUIRED'));
      const result = schema.safeParse(value);
      if (!result.success) throw new Error(translateCode(result.error.issues[0]?.message));
    },
  });
}

function LazyEditor(props: { value?: string; onChange?: (html: string) => void; id?: string }) {
  return (
    <Suspense fallback={<Skeleton.Input active block style={{ height: 200 }} />}>
      <PostEditor {...props} />
    </Suspense>
  );
}

/** Publish a post (title, text and an image: all required, spec 5) or change one's text. */
export function PostFormModal({ post, onClose }: Props) {
  const { t } = useTranslation('news');
  const { message } = useApp();
  const [form] = Form.useForm<Values>();
  const [image, setImage] = useState<File | null>(null);
  const [imageError, setImageError] = useState<string | null>(null);
  const create = useCreatePostMutation();
  const update = useUpdatePostMutation();
  const open = post !== undefined;
  const editing = !!post;

  useEffect(() => {
    if (!open) return;
    form.setFieldsValue({
      title: post?.title ?? '',
      text: post?.text ?? '',
      titleEn: post?.en?.title ?? '',
      textEn: post?.en?.text ?? '',
    });
    setImage(null);
    setImageError(null);
  }, [open, post, form]);

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!editing && !image) setImageError(translateCode('IMAGE_REQUIRED'));
    if (!values || (!editing && !image)) return;
    // Both English fields empty: the post has no English version (an update removes it).
    const hasEnglish = !isBlank(values.titleEn) && !isBlank(values.textEn);
    const english = { titleEn: hasEnglish ? values.titleEn : null, textEn: hasEnglish ? values.textEn : null };
    try {
      const saved = post
        ? await update.mutateAsync({ id: post._id, title: values.title, text: values.text, ...english })
        : await create.mutateAsync({ title: values.title, text: values.text, ...english, image: image as File });
      void message.success(editing ? t('messages.saved') : t('messages.published'));
      onClose(saved);
    } catch (err) {
      const imageProblem = (err as { errors?: { field: string; code: string }[] }).errors?.find(
        (e) => e.field === 'image',
      );
      if (imageProblem) setImageError(translateCode(imageProblem.code));
      if (!applyServerErrors(form, err) && !imageProblem) void message.error(errorMessage(err));
    }
  };

  return (
    <Modal
      open={open}
      title={editing ? t('form.editTitle') : t('form.createTitle')}
      onCancel={() => onClose()}
      onOk={() => void submit()}
      okText={editing ? t('form.save') : t('form.publish')}
      cancelText={t('form.cancel')}
      confirmLoading={create.isPending || update.isPending}
      width={760}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" requiredMark>
        <Typography.Title level={5}>{t('form.uk')}</Typography.Title>
        <Form.Item name="title" label={t('form.title')} required rules={[zodRule(ZPostTitle)]}>
          <Input maxLength={200} lang="uk" />
        </Form.Item>
        <Form.Item name="text" label={t('form.text')} required rules={[zodRule(ZPostText)]}>
          <LazyEditor />
        </Form.Item>
        <Typography.Title level={5}>{t('form.en')}</Typography.Title>
        <Typography.Paragraph type="secondary" className="lr-hint">
          {t('form.enHint')}
        </Typography.Paragraph>
        <Form.Item
          name="titleEn"
          label={t('form.titleEn')}
          dependencies={['textEn']}
          rules={[englishRule(ZPostTitle, 'textEn')]}
        >
          <Input maxLength={200} lang="en" />
        </Form.Item>
        <Form.Item
          name="textEn"
          label={t('form.textEn')}
          dependencies={['titleEn']}
          rules={[englishRule(ZPostText, 'titleEn')]}
        >
          <LazyEditor />
        </Form.Item>
        {!editing && (
          <Form.Item
            label={t('form.image')}
            required
            validateStatus={imageError ? 'error' : undefined}
            help={imageError ?? t('form.imageHelp')}
          >
            <Upload
              accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
              maxCount={1}
              listType="picture"
              beforeUpload={(file) => {
                if (file.size > POST_IMAGE_MAX_BYTES) {
                  setImageError(translateCode('IMAGE_TOO_LARGE'));
                  return Upload.LIST_IGNORE;
                }
                setImage(file);
                setImageError(null);
                return false;
              }}
              onRemove={() => setImage(null)}
            >
              <Button icon={<UploadOutlined aria-hidden />}>{t('form.chooseImage')}</Button>
            </Upload>
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
