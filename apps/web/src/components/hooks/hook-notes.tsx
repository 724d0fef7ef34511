import { DeleteOutlined } from '@ant-design/icons';
import { COMMENT_MAX } from '@leadrelay/shared';
import { Button, Input, List, Popconfirm, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/errors';
import { formatDateTime } from '../../lib/hooks/format';
import { useAddNoteMutation, useDeleteNoteMutation, useNotesQuery } from '../../lib/hooks/notes';
import { useApp } from '../../lib/use-app';

/** The team's notes on one lead ("called back, wants a quote"), oldest first. */
export function HookNotes({ hookId }: { hookId: string }) {
  const { t } = useTranslation('hooks');
  const { message } = useApp();
  const notes = useNotesQuery(hookId);
  const add = useAddNoteMutation(hookId);
  const remove = useDeleteNoteMutation(hookId);
  const [text, setText] = useState('');

  const submit = async () => {
    if (!text.trim()) return;
    try {
      await add.mutateAsync(text);
      setText('');
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };

  return (
    <section className="lr-mb" aria-label={t('notes.title')}>
      <Typography.Title level={5}>{t('notes.title')}</Typography.Title>
      {notes.isError && <Typography.Paragraph type="danger">{errorMessage(notes.error)}</Typography.Paragraph>}
      {(notes.data ?? []).length > 0 && (
        <List
          size="small"
          dataSource={notes.data}
          renderItem={(note) => (
            <List.Item
              data-testid="hook-note"
              actions={[
                <Popconfirm
                  key="delete"
                  title={t('notes.deleteConfirm')}
                  okText={t('notes.delete')}
                  cancelText={t('notes.cancel')}
                  onConfirm={() =>
                    remove.mutateAsync(note._id).catch((err: unknown) => void message.error(errorMessage(err)))
                  }
                >
                  <Button
                    size="small"
                    type="text"
                    danger
                    icon={<DeleteOutlined aria-hidden />}
                    aria-label={t('notes.delete')}
                  />
                </Popconfirm>,
              ]}
            >
              <List.Item.Meta
                title={<span className="lr-break">{note.text}</span>}
                description={`${note.author} · ${formatDateTime(note.createdAt)}`}
              />
            </List.Item>
          )}
        />
      )}
      <Input.TextArea
        value={text}
        onChange={(e) => setText(e.target.value)}
        maxLength={COMMENT_MAX}
        autoSize={{ minRows: 2, maxRows: 6 }}
        placeholder={t('notes.placeholder')}
        aria-label={t('notes.placeholder')}
        onPressEnter={(e) => {
          if (e.ctrlKey || e.metaKey) void submit();
        }}
      />
      <Button style={{ marginTop: 8 }} onClick={() => void submit()} loading={add.isPending} disabled={!text.trim()}>
        {t('notes.add')}
      </Button>
    </section>
  );
}
