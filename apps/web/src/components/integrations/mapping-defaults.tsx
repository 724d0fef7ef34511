import { DeleteOutlined, EditOutlined, UndoOutlined } from '@ant-design/icons';
import { Button, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { type DefaultRow, defaultAsRules, defaultRows, type OptionsDraft, removeDefault } from './mapping-draft';

interface Props {
  draft: OptionsDraft;
  onChange: (draft: OptionsDraft) => void;
}

/**
 * The default mapping as rows (shared DEFAULT_MAPPING): what fills the lead beside the rules. A row
 * can be changed (it becomes rules, which replace it) or removed (saved as `defaults`).
 */
export function MappingDefaults({ draft, onChange }: Props) {
  const { t } = useTranslation('integrations');
  const rows = defaultRows(draft);
  // The lead's own fields are named as in the preview; UTM and custom fields as groups.
  const labels: Record<DefaultRow['id'], string> = {
    name: t('fields.name'),
    phone: t('fields.phone'),
    email: t('fields.email'),
    comment: t('fields.comment'),
    utm: t('mapping.defaults.row.utm'),
    custom: t('mapping.defaults.row.custom'),
  };
  const label = (row: DefaultRow) => labels[row.id];

  return (
    <div className="lr-map-defaults" data-testid="mapping-defaults">
      <Typography.Paragraph type="secondary" className="lr-hint">
        {rows.length ? t('mapping.defaults.hint') : t('mapping.defaults.none')}
      </Typography.Paragraph>
      {rows.map((row) => (
        <div key={row.id} className="lr-map-row is-default" data-testid="mapping-default" data-default={row.id}>
          <div className="lr-map-field is-wide">
            <span className="lr-map-label">{t('mapping.from')}</span>
            <span className="lr-map-value">
              {row.id === 'custom'
                ? t('mapping.defaults.otherFields')
                : row.from.map((f) => (
                    <Tag key={f} className="lr-mono">
                      {f}
                    </Tag>
                  ))}
            </span>
          </div>
          <div className="lr-map-field">
            <span className="lr-map-label">{t('mapping.to')}</span>
            <span className="lr-map-value">
              {label(row)}
              <Typography.Text type="secondary" className="lr-mono">
                {' · '}
                {row.id === 'custom' ? 'custom.*' : row.id === 'utm' ? 'utm.*' : row.id}
              </Typography.Text>
            </span>
          </div>
          <div className="lr-map-field">
            <span className="lr-map-label">{t('mapping.transform')}</span>
            <span className="lr-map-value">
              {row.transform.length
                ? row.transform.map((tr) => t(`transforms.${tr}`)).join(', ')
                : t('mapping.noTransform')}
            </span>
          </div>
          <div className="lr-map-default-actions">
            {row.id !== 'custom' && (
              <Button
                type="text"
                icon={<EditOutlined aria-hidden />}
                aria-label={t('mapping.defaults.change', { field: label(row) })}
                title={t('mapping.defaults.change', { field: label(row) })}
                onClick={() => onChange({ ...draft, mapping: [...draft.mapping, ...defaultAsRules(row)] })}
              />
            )}
            <Button
              type="text"
              danger
              icon={<DeleteOutlined aria-hidden />}
              aria-label={t('mapping.defaults.remove', { field: label(row) })}
              title={t('mapping.defaults.remove', { field: label(row) })}
              onClick={() => onChange(removeDefault(draft, row))}
            />
          </div>
        </div>
      ))}
      {draft.defaultsOff.length > 0 && (
        <Button
          type="link"
          icon={<UndoOutlined aria-hidden />}
          className="lr-map-restore"
          onClick={() => onChange({ ...draft, defaultsOff: [] })}
        >
          {t('mapping.defaults.restore')}
        </Button>
      )}
    </div>
  );
}
