import { describe, expect, it } from 'vitest';
import { postExcerpt, postVersion } from './post-format';

describe('the news list excerpt', () => {
  it('keeps paragraphs, headings and list items apart, one line each', () => {
    expect(
      postExcerpt(
        '<h2>Що нового</h2><p>Перший абзац.</p><p>Другий <b>абзац</b>.</p><ul><li>один</li><li>два</li></ul>',
      ),
    ).toBe('Що нового\nПерший абзац.\nДругий абзац.\nодин\nдва');
    expect(postExcerpt('<p>Рядок<br>наступний</p>')).toBe('Рядок\nнаступний');
  });

  it('cuts a long text with an ellipsis and runs nothing', () => {
    const excerpt = postExcerpt(`<p>${'слово '.repeat(100)}</p><img src=x onerror="window.ran=1">`, 40);
    expect(excerpt).toHaveLength(40);
    expect(excerpt.endsWith('…')).toBe(true);
    expect((window as { ran?: number }).ran).toBeUndefined();
  });
});

describe('the version a page shows', () => {
  const post = { title: 'Новина', text: '<p>Текст</p>', en: { title: 'News', text: '<p>Text</p>' } };

  it('reads the page language when the post has it', () => {
    expect(postVersion(post, 'uk')).toEqual({
      title: 'Новина',
      text: '<p>Текст</p>',
      lang: 'uk',
      isOtherLanguage: false,
    });
    expect(postVersion(post, 'en')).toEqual({ title: 'News', text: '<p>Text</p>', lang: 'en', isOtherLanguage: false });
  });

  it('shows the Ukrainian version on an English page, marked, when there is no English one', () => {
    expect(postVersion({ ...post, en: null }, 'en')).toMatchObject({
      title: 'Новина',
      lang: 'uk',
      isOtherLanguage: true,
    });
  });
});
