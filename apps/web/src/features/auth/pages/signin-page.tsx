import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { AuthCard } from '../../../components/auth-card';
import { Alert } from '../../../components/plain/alert';
import { Button } from '../../../components/plain/button';
import { Field } from '../../../components/plain/field';
import { setToken } from '../../../lib/auth';
import { errorMessage, translateCode } from '../../../lib/errors';
import { HttpError } from '../../../lib/http';
import { currentLocale, localePath } from '../../../lib/locale';
import { authApi } from '../api';
import { FacebookButton, useFacebookReturn } from '../components/facebook-button';
import { loadAuthRules } from '../load-rules';

type Name = 'login' | 'password';
type Values = Record<Name, string>;
type Errors = Partial<Record<Name, string>>;

type Notice = {
  type: 'warning' | 'success' | 'info';
  key: 'signin.sessionExpired' | 'signin.passwordChanged' | 'signin.accountRemoved';
};
/** By ?message= (the URL's, so a Map: `constructor` is no notice of ours). */
const NOTICES = new Map<string, Notice>([
  ['session', { type: 'warning', key: 'signin.sessionExpired' }],
  ['password-changed', { type: 'success', key: 'signin.passwordChanged' }],
  ['account-removed', { type: 'info', key: 'signin.accountRemoved' }],
]);

/** The field's error by the shared schema (the same rules as the server's), or none. */
async function check(name: Name, value: string): Promise<string | undefined> {
  const rules = await loadAuthRules();
  const result = rules[name].safeParse(value);
  return result.success ? undefined : translateCode(result.error.issues[0]?.message);
}

/**
 * /signin in plain markup (no antd), so the page shows within the first-load budget (issue 17
 * part 8). Each field is checked on leaving it and on submit, by the shared schema loaded as the
 * form mounts; the server's field errors land on their fields, the rest above the form.
 */
export function SigninPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  // ?login= from a confirmation link opened in another browser (confirm-page.tsx).
  const [values, setValues] = useState<Values>({ login: params.get('login') ?? '', password: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [error, setError] = useState<unknown>(null);
  const [resent, setResent] = useState<'sent' | { failed: unknown } | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const notice = NOTICES.get(params.get('message') ?? '');
  const isFacebookReturn = useFacebookReturn(setError);

  // The schemas are fetched once the form shows, before anyone leaves a field.
  useEffect(() => void loadAuthRules(), []);

  const change = (name: Name) => (value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    // A field shown wrong is checked again as it is corrected, as antd's form does.
    if (errors[name]) void check(name, value).then((e) => setErrors((old) => ({ ...old, [name]: e })));
  };
  const blur = (name: Name) => () =>
    void check(name, values[name]).then((e) => setErrors((old) => ({ ...old, [name]: e })));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    setError(null);
    setResent(null);
    const found: Errors = {
      login: await check('login', values.login),
      password: await check('password', values.password),
    };
    setErrors(found);
    const invalid = (['login', 'password'] as const).find((name) => found[name]);
    if (invalid) {
      form.current?.querySelector<HTMLInputElement>(`[name="${invalid}"]`)?.focus();
      return;
    }
    setSubmitting(true);
    try {
      const { ZLoginBody } = await loadAuthRules();
      const { accessToken } = await authApi.login(ZLoginBody.parse(values));
      setToken(accessToken); // the guest guard then moves on to /admin or the saved redirect
    } catch (err) {
      const onFields =
        err instanceof HttpError
          ? err.errors.filter((e): e is typeof e & { field: Name } => Object.hasOwn(values, e.field))
          : [];
      if (onFields.length) setErrors(Object.fromEntries(onFields.map((e) => [e.field, translateCode(e.code)])));
      else setError(err);
      setSubmitting(false);
    }
  };

  const resend = async () => {
    try {
      await authApi.resendConfirmation(values.login, currentLocale());
      setResent('sent');
    } catch (err) {
      setResent({ failed: err });
    }
  };

  const notConfirmed = error instanceof HttpError && error.code === 'EMAIL_NOT_CONFIRMED';

  return (
    <AuthCard title={t('signin.title')} subtitle={t('signin.subtitle')}>
      {notice && !error && <Alert className="lr-mb" type={notice.type} title={t(notice.key)} />}
      {isFacebookReturn && <Alert className="lr-mb" type="info" title={t('facebook.signingIn')} />}
      {error != null && (
        <Alert
          className="lr-mb"
          type="error"
          role="alert"
          title={errorMessage(error)}
          description={notConfirmed ? t('signin.notConfirmed') : undefined}
          action={
            notConfirmed && resent !== 'sent' ? (
              <Button size="small" onClick={resend}>
                {t('signin.resend')}
              </Button>
            ) : undefined
          }
        />
      )}
      {resent === 'sent' && <Alert className="lr-mb" type="success" role="status" title={t('signin.resent')} />}
      {resent !== null && resent !== 'sent' && (
        <Alert className="lr-mb" type="error" role="alert" title={errorMessage(resent.failed)} />
      )}
      <form ref={form} onSubmit={onSubmit} noValidate>
        <Field
          id="login"
          name="login"
          label={t('email')}
          value={values.login}
          onChange={change('login')}
          onBlur={blur('login')}
          invalid={errors.login}
          inputMode="email"
          autoComplete="username"
          placeholder={t('emailPlaceholder')}
        />
        <Field
          id="password"
          name="password"
          label={t('passwordLabel')}
          password
          value={values.password}
          onChange={change('password')}
          onBlur={blur('password')}
          invalid={errors.password}
          autoComplete="current-password"
          extra={
            <Link to={localePath('/recovery')} className="lr-forgot">
              {t('signin.forgot')}
            </Link>
          }
        />
        <Button kind="primary" htmlType="submit" size="large" block loading={submitting}>
          {t('signin.submit')}
        </Button>
      </form>
      <FacebookButton onError={setError} />
      <p className="lr-auth-footer">
        {t('signin.noAccount')} <Link to={localePath('/signup')}>{t('signin.signupLink')}</Link>
      </p>
    </AuthCard>
  );
}
