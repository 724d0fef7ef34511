import type { Post, PostAnalytics, PostList } from '@leadrelay/shared';
import { api, http } from '../../lib/http';

const POSTS = '/api/legacy/api/post';
const id = (postId: string) => encodeURIComponent(postId);

/** The English version: both or neither (null: none, or remove it on an update). */
export interface EnglishVersion {
  titleEn: string | null;
  textEn: string | null;
}

export interface NewPost extends EnglishVersion {
  title: string;
  text: string;
  image: File;
}

export type PostChange = Partial<EnglishVersion> & { title?: string; text: string };

export const newsApi = {
  list: (page: number, limit: number) => api.get<PostList>(POSTS, { page, limit }),
  get: (postId: string) => api.get<Post>(`${POSTS}/${id(postId)}`),
  addView: (postId: string) =>
    http<{ views: number; counted: boolean }>(`${POSTS}/add/view/${id(postId)}`, { method: 'PUT', body: {} }),
  // Staff
  adminList: (page: number, limit: number) => api.get<PostList>(`${POSTS}/admin`, { page, limit }),
  create: ({ title, text, titleEn, textEn, image }: NewPost) => {
    const form = new FormData();
    form.append('title', title);
    form.append('text', text);
    if (titleEn !== null && textEn !== null) {
      form.append('titleEn', titleEn);
      form.append('textEn', textEn);
    }
    form.append('image', image);
    return http<Post>(`${POSTS}/admin`, { method: 'POST', body: form });
  },
  update: (postId: string, body: PostChange) => http<Post>(`${POSTS}/admin/${id(postId)}`, { method: 'PUT', body }),
  remove: (postId: string) => api.delete<{ success: true }>(`${POSTS}/admin/${id(postId)}`),
  analytics: (days: number) => api.get<PostAnalytics>(`${POSTS}/admin/get/analytics`, { days }),
};
