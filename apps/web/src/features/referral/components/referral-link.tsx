import { CopyOutlined } from '@ant-design/icons';
import { Button, Card, Input, QRCode, Space, Typography } from 'antd';
import { useRef } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { useApp } from '../../../lib/use-app';

/** The link to share, a copy button and its QR code (antd's QRCode, drawn as SVG). */
export function ReferralLink({ link, code }: { link: string; code: string }) {
  const { t } = useTranslation('referral');
  const { message } = useApp();
  const inputRef = useRef<HTMLInputElement>(null);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      void message.success(t('link.copied'));
    } catch {
      // No clipboard (an insecure origin, a refused permission): the link is selected to copy by hand.
      inputRef.current?.select();
      void message.warning(t('link.copyFailed'));
    }
  };

  return (
    <Card title={t('link.title')} className="lr-fill lr-referral-card" data-testid="referral-link">
      <div className="lr-referral-link">
        <div className="lr-referral-link-text">
          <Space.Compact className="lr-referral-copy">
            <Input
              ref={(el) => {
                inputRef.current = el?.input ?? null;
              }}
              readOnly
              value={link}
              aria-label={t('link.label')}
              onFocus={(e) => e.target.select()}
            />
            <Button type="primary" icon={<CopyOutlined aria-hidden />} onClick={() => void copy()}>
              {t('link.copy')}
            </Button>
          </Space.Compact>
          <Typography.Text type="secondary">
            {/* The code is data, not words: marked so (translate="no"), as a browser's translator reads it. */}
            <Trans t={t} i18nKey="link.code" values={{ code }} components={{ code: <code translate="no" /> }} />
          </Typography.Text>
        </div>
        <figure className="lr-referral-qr">
          <div role="img" aria-label={t('link.qr')} data-testid="referral-qr">
            <QRCode value={link} type="svg" size={148} bordered={false} errorLevel="M" />
          </div>
          <Typography.Text type="secondary" className="lr-referral-qr-hint">
            {t('link.qrHint')}
          </Typography.Text>
        </figure>
      </div>
    </Card>
  );
}
