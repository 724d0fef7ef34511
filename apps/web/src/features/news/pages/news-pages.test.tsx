import type { Post } from '@leadrelay/shared';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routeFetch } from '../../../test/integration-fixtures';
import { renderRoute } from '../../../test/render';
import { NewsPage } from './news-page';
import { NewsPostPage } from './news-post-page';

afterEach(() => vi.unstubAllGlobals());

const ID = '77777777-7777-4777-8777-777777777777';
const post = (over: Partial<Post> = {}): Post => ({
  _id: ID,
  title: 'Нова інтеграція',
  text: '<p>Перший абзац.</p><p>Другий абзац.</p>',
  en: { title: 'A new integration', text: '<p>First paragraph.</p><p>Second paragraph.</p>' },
  image: `/api/legacy/api/post/image/${ID}?v=1`,
  views: 3,
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  ...over,
});

function open(p: Post, locale: 'uk' | 'en') {
  routeFetch({
    [`GET /api/legacy/api/post/${ID}`]: p,
    [`PUT /api/legacy/api/post/add/view/${ID}`]: { views: 4, counted: true },
    'GET /api/legacy/api/post': { data: [p], total: 1 },
  });
  const prefix = locale === 'en' ? '/en' : '';
  return prefix;
}

describe('a post in the page language', () => {
  it('an English page reads the English version', async () => {
    const prefix = open(post(), 'en');
    renderRoute(`${prefix}/news/:id`, <NewsPostPage />, `${prefix}/news/${ID}`, 'en');
    expect(await screen.findByRole('heading', { name: 'A new integration' })).toBeTruthy();
    expect(screen.getByText('Second paragraph.')).toBeTruthy();
    expect(screen.queryByText(/Нова|абзац/)).toBeNull();
    expect(screen.queryByTestId('post-only-uk')).toBeNull();
  });

  it('a Ukrainian page reads the Ukrainian version', async () => {
    open(post(), 'uk');
    renderRoute('/news/:id', <NewsPostPage />, `/news/${ID}`, 'uk');
    expect(await screen.findByRole('heading', { name: 'Нова інтеграція' })).toBeTruthy();
    expect(screen.queryByText(/paragraph/)).toBeNull();
  });

  it('an English page says when a post is only in Ukrainian, and marks its language', async () => {
    const prefix = open(post({ en: null }), 'en');
    renderRoute(`${prefix}/news/:id`, <NewsPostPage />, `${prefix}/news/${ID}`, 'en');
    const heading = await screen.findByRole('heading', { name: 'Нова інтеграція' });
    expect(heading.getAttribute('lang')).toBe('uk');
    expect(screen.getByTestId('post-only-uk').textContent).toContain('This post is only in Ukrainian.');
  });

  it('the list shows each post in the page language, its excerpt one line per paragraph', async () => {
    open(post(), 'en');
    renderRoute('/en/news', <NewsPage />, '/en/news', 'en');
    expect(await screen.findByText('A new integration')).toBeTruthy();
    const excerpt = document.querySelector('.lr-news-excerpt');
    expect(excerpt?.textContent).toBe('First paragraph.\nSecond paragraph.');
  });

  it('the list marks a post that is only in Ukrainian on an English page', async () => {
    open(post({ en: null }), 'en');
    renderRoute('/en/news', <NewsPage />, '/en/news', 'en');
    expect(await screen.findByText('Нова інтеграція')).toBeTruthy();
    expect(screen.getByTestId('post-only-uk').textContent).toBe('In Ukrainian');
  });
});
