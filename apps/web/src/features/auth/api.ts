import type {
  ConfirmEmailResponse,
  CreateAccountBody,
  FacebookSigninBody,
  FacebookSigninConfig,
  LoginBody,
} from '@leadrelay/shared';
import { api } from '../../lib/http';

type Token = { accessToken: string };
type Ok = { success: true };

export const authApi = {
  createAccount: (body: CreateAccountBody) => api.post<Ok>('/api/auth/create-account', body),
  /** Signs in only in the browser that signed up; elsewhere it only confirms (`{confirmed, login}`). */
  confirmEmail: (token: string) => api.post<ConfirmEmailResponse>('/api/auth/confirm-email', { token }),
  resendConfirmation: (login: string, lang?: string) => api.post<Ok>('/api/auth/resend-confirmation', { login, lang }),
  login: (body: LoginBody) => api.post<Token>('/api/auth/login', body),
  forgotPassword: (login: string, lang?: string) => api.post<Ok>('/api/auth/forgot-password', { login, lang }),
  checkResetToken: (token: string) =>
    api.get<{ valid: true; login: string }>(`/api/auth/forgot-password/${encodeURIComponent(token)}`),
  confirmPassword: (body: { token: string; password: string; passwordConfirm: string }) =>
    api.post<Ok>('/api/auth/confirm-password', body),
  facebookConfig: () => api.get<FacebookSigninConfig>('/api/auth/facebook/config'),
  facebookSignIn: (body: FacebookSigninBody) => api.post<Token>('/api/auth/facebook', body),
  /** The one-time code of an /enter link, for the entered session's token. */
  enter: (code: string) => api.post<Token>('/api/auth/enter', { code }),
};
