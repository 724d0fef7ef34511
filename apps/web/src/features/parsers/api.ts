// Typed calls of the parsers' routes (spec 7 "Parsers") and the page's own: the mail log, the live
// preview and "check the mailbox now".
import type {
  Parser,
  ParserConfigBody,
  ParserCreateBody,
  ParserMail,
  ParserPreview,
  ParserRules,
  ParserUpdateBody,
} from '@leadrelay/shared';
import { api, http } from '../../lib/http';

const legacy = '/api/legacy/api/admin/parser';
const admin = '/api/admin/parser';
const id = (value: string) => encodeURIComponent(value);

export interface IntegrationRef {
  _id: string;
  name: string;
  type: string;
  active: boolean;
}

export const parsersApi = {
  list: (q: { page: number; limit: number; search?: string }) =>
    api.get<{ data: Parser[]; total: number }>(legacy, { ...q }),
  sources: () => api.get<{ data: IntegrationRef[]; total: number }>(`${legacy}/integrations`),
  destinations: (q: { search?: string; type?: string } = {}) =>
    api.get<{ data: IntegrationRef[]; total: number }>(`${legacy}/destinations`, { ...q }),
  create: (body: ParserCreateBody) => api.post<Parser>(legacy, body),
  get: (parserId: string) => api.get<Parser>(`${admin}/${id(parserId)}`),
  update: (parserId: string, body: ParserUpdateBody) =>
    http<Parser>(`${admin}/${id(parserId)}`, { method: 'PUT', body }),
  config: (parserId: string, body: ParserConfigBody) =>
    http<Parser>(`${admin}/${id(parserId)}/config`, { method: 'PUT', body }),
  remove: (parserId: string) => api.delete<void>(`${admin}/${id(parserId)}`),
  mails: (parserId: string, q: { page: number; limit: number }) =>
    api.get<{ data: ParserMail[]; total: number }>(`${admin}/${id(parserId)}/mails`, { ...q }),
  preview: (parserId: string, body: { sample?: string; rules?: ParserRules; mailId?: string }) =>
    api.post<ParserPreview>(`${admin}/${id(parserId)}/preview`, body),
  retryMail: (parserId: string, mailId: string) =>
    api.post<ParserMail>(`${admin}/${id(parserId)}/mails/${id(mailId)}/retry`, {}),
  poll: (parserId: string) => api.post<{ stored: number }>(`${admin}/${id(parserId)}/poll`, {}),
};
