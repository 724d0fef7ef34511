import { UploadOutlined } from '@ant-design/icons';
import { POST_IMAGE_MAX_BYTES, type Post, ZPostText, ZPostTitle } from '@leadrelay/shared';
import { Button, Form, Input, Modal, Skeleton, Upload } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage, translateCode } from '../../../lib/errors';
import { applyServerErrors, zodRule } from '../../../lib/form';
import { useApp } from '../../../lib/use-app';
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
    form.setFieldsValue({ title: post?.title ?? '', text: post?.text ?? '' });
    setImage(null);
    setImageError(null);
  }, [open, post, form]);

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!editing && !image) setImageError(translateCode('IMAGE_REQUIRED'));
    if (!values || (!editing && !image)) return;
    try {
      const saved = post
        ? await update.mutateAsync({ id: post._id, title: values.title, text: values.text })
        : await create.mutateAsync({ title: values.title, text: values.text, image: image as File });
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
        <Form.Item name="title" label={t('form.title')} required rules={[zodRule(ZPostTitle)]}>
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item name="text" label={t('form.text')} required rules={[zodRule(ZPostText)]}>
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
