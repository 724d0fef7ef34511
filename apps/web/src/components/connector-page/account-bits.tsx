// Pieces the account-connection widgets share (kit/manifest-accounts.ts): the brand's mark, a
// profile's picture, a connection's status and expiry, and signing in at the service.
import type {
  AccountConnection,
  AccountsScreen,
  ConnectorLogo,
  ConnectorManifest,
} from '@leadrelay/connectors/manifest';
import { Avatar, Tag, Typography } from 'antd';
import { usePictureQuery, useStartMutation } from '../../lib/connectors/account-queries';
import { errorMessage } from '../../lib/errors';
import { useApp } from '../../lib/use-app';
import { reasonText } from '../integrations/status-tag';
import type { Say } from './words';

/** A connector with account connections. */
export type AccountsManifest = ConnectorManifest & { accounts: AccountsScreen };

/** The connector's mark at the text's size: in its colours, or in the text's colour (`mono`: on a button). */
export function LogoMark({ logo, mono, className }: { logo: ConnectorLogo; mono?: boolean; className?: string }) {
  const drawing = 'mark' in logo ? logo.mark : 'glyph' in logo ? logo.glyph : null;
  return (
    <span aria-hidden="true" className={`anticon lr-acc-logo${className ? ` ${className}` : ''}`}>
      {drawing ? (
        <svg aria-hidden="true" focusable="false" viewBox={drawing.viewBox} width="1em" height="1em">
          {drawing.paths.map((p) => (
            <path key={p.d} d={p.d} fill={mono ? 'currentColor' : p.fill} />
          ))}
        </svg>
      ) : (
        'tile' in logo && logo.tile.initials
      )}
    </span>
  );
}

/** A profile's or asset's picture (kept as long as the manifest says); the brand's mark while it loads or when there is none. */
export function AccountAvatar({
  manifest,
  accountId,
  name,
  size = 40,
}: {
  manifest: AccountsManifest;
  accountId: string;
  name: string;
  size?: number;
}) {
  const picture = usePictureQuery(manifest, accountId);
  const url = picture.data?.url;
  return (
    <Avatar
      size={size}
      src={url || undefined}
      icon={url ? undefined : <LogoMark logo={manifest.logo} mono />}
      alt={name}
      className="lr-acc-avatar"
      style={{ background: manifest.accounts.color }}
    />
  );
}

const DAY_MS = 86_400_000;

/** Whole days until access ends (0 on its last day, negative once ended); null when it does not end. */
export function daysLeft(expiresAt: string | null, now: number = Date.now()): number | null {
  if (!expiresAt) return null;
  const at = Date.parse(expiresAt);
  if (Number.isNaN(at)) return null;
  return Math.floor((at - now) / DAY_MS);
}

/** Works / not working (with the service's reason), and how long the access lasts. */
export function AccountStatus({
  connection,
  warnDays,
  say,
  withReason = true,
}: {
  connection: Pick<AccountConnection, 'broken' | 'reason' | 'expiresAt'>;
  warnDays: number;
  say: Say;
  withReason?: boolean;
}) {
  const days = daysLeft(connection.expiresAt);
  const { broken } = connection;
  const expiry =
    days === null ? null : days < 0 ? (
      <Typography.Text type="danger">{say('status.expired')}</Typography.Text>
    ) : (
      <Typography.Text type={broken || days <= warnDays ? 'danger' : 'secondary'}>
        {days === 0 ? say('status.expiresToday') : say('status.expiresIn', { count: days })}
      </Typography.Text>
    );
  return (
    <span className="lr-acc-status" data-testid="account-status">
      <Tag color={broken ? 'red' : 'green'}>{broken ? say('status.broken') : say('status.ok')}</Tag>
      {expiry}
      {broken && withReason && connection.reason && (
        <Typography.Text type="danger" className="lr-acc-reason">
          {reasonText(connection.reason)}
        </Typography.Text>
      )}
    </span>
  );
}

/** Connect or reconnect: the browser goes to the service's sign-in and comes back to the connections page. */
export function useSignIn(manifest: AccountsManifest) {
  const { message } = useApp();
  const start = useStartMutation(manifest);
  const connect = async () => {
    try {
      window.location.assign(await start.mutateAsync());
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  return { connect, isPending: start.isPending };
}
