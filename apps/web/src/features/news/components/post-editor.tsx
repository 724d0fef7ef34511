import { POST_EDITOR_MAX_HEIGHT } from '@leadrelay/shared';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Button, Space, Tooltip } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  value?: string;
  onChange?: (html: string) => void;
  id?: string;
}

type Mark = 'bold' | 'italic' | 'strike' | 'bulletList' | 'orderedList' | 'blockquote';

/** The post's text: a rich-text editor (tiptap) at most 500px high (spec 9); the server sanitises the HTML. */
export function PostEditor({ value, onChange, id }: Props) {
  const { t } = useTranslation('news');
  const editor = useEditor({
    extensions: [StarterKit.configure({ heading: { levels: [2, 3] }, link: { openOnClick: false } })],
    content: value ?? '',
    onUpdate: ({ editor: e }) => onChange?.(e.isEmpty ? '' : e.getHTML()),
    editorProps: { attributes: { class: 'lr-editor-content', 'aria-label': t('form.text'), ...(id ? { id } : {}) } },
  });
  // A form reset (a new post) clears the editor.
  useEffect(() => {
    if (editor && (value ?? '') === '' && !editor.isEmpty) editor.commands.clearContent();
  }, [editor, value]);
  const active = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: !!e?.isActive('bold'),
      italic: !!e?.isActive('italic'),
      strike: !!e?.isActive('strike'),
      h2: !!e?.isActive('heading', { level: 2 }),
      bulletList: !!e?.isActive('bulletList'),
      orderedList: !!e?.isActive('orderedList'),
      blockquote: !!e?.isActive('blockquote'),
    }),
  });
  if (!editor) return null;
  const toggle = (mark: Mark) => {
    const chain = editor.chain().focus();
    const run = {
      bold: () => chain.toggleBold(),
      italic: () => chain.toggleItalic(),
      strike: () => chain.toggleStrike(),
      bulletList: () => chain.toggleBulletList(),
      orderedList: () => chain.toggleOrderedList(),
      blockquote: () => chain.toggleBlockquote(),
    }[mark];
    run().run();
  };
  const tool = (key: Mark | 'h2', label: string, text: React.ReactNode, onClick: () => void) => (
    <Tooltip title={label} key={key}>
      <Button
        size="small"
        type={active?.[key] ? 'primary' : 'default'}
        aria-label={label}
        aria-pressed={!!active?.[key]}
        onClick={onClick}
      >
        {text}
      </Button>
    </Tooltip>
  );
  const setLink = () => {
    const previous = editor.getAttributes('link').href as string | undefined;
    const href = window.prompt(t('editor.linkPrompt'), previous ?? 'https://');
    if (href === null) return;
    if (href === '') editor.chain().focus().unsetLink().run();
    else editor.chain().focus().extendMarkRange('link').setLink({ href }).run();
  };
  return (
    <div className="lr-editor">
      <Space wrap size={4} className="lr-editor-toolbar">
        {tool('bold', t('editor.bold'), <b>B</b>, () => toggle('bold'))}
        {tool('italic', t('editor.italic'), <i>I</i>, () => toggle('italic'))}
        {tool('strike', t('editor.strike'), <s>S</s>, () => toggle('strike'))}
        {tool('h2', t('editor.heading'), 'H2', () => editor.chain().focus().toggleHeading({ level: 2 }).run())}
        {tool('bulletList', t('editor.bulletList'), '•', () => toggle('bulletList'))}
        {tool('orderedList', t('editor.orderedList'), '1.', () => toggle('orderedList'))}
        {tool('blockquote', t('editor.quote'), '❝', () => toggle('blockquote'))}
        <Button size="small" onClick={setLink}>
          {t('editor.link')}
        </Button>
      </Space>
      <div className="lr-editor-scroll" style={{ maxHeight: POST_EDITOR_MAX_HEIGHT }}>
        <EditorContent editor={editor} />
      </div>
    </div>
  );
}
