-- The operator's own words for the connectors' codes follow the codes into their folders (issue 29):
-- errors:<CODE> becomes connectors:<slug>.errors.<CODE>, integrations:reasons.<CODE> connectors:<slug>.reasons.<CODE>.
-- A word the operator already saved under the new key stays; the old one is then left unread.
UPDATE "translations" AS t
SET "namespace" = 'connectors', "key" = m.slug || '.' || m.grp || '.' || m.code, "updated_at" = now()
FROM (VALUES
  ('alfasms', 'errors', 'SMS_SENDER_INVALID'),
  ('alfasms', 'errors', 'SMS_PLACEHOLDER_UNKNOWN'),
  ('alfasms', 'errors', 'SMS_PHONE_NOT_MOBILE'),
  ('alfasms', 'reasons', 'SMS_QUIET_HOURS'),
  ('alfasms', 'reasons', 'SMS_NO_PHONE'),
  ('alfasms', 'reasons', 'SMS_PHONE_INVALID'),
  ('alfasms', 'reasons', 'SMS_PHONE_NOT_MOBILE'),
  ('alfasms', 'reasons', 'SMS_PHONE_FOREIGN'),
  ('alfasms', 'reasons', 'SMS_MANAGER_NO_PHONE'),
  ('alfasms', 'reasons', 'SMS_MANAGER_PHONE_INVALID'),
  ('alfasms', 'reasons', 'SMS_MANAGER_PHONE_NOT_MOBILE'),
  ('alfasms', 'reasons', 'SMS_TEXT_EMPTY'),
  ('alfasms', 'reasons', 'ALPHASMS_ACCESS_DENIED'),
  ('alfasms', 'reasons', 'ALPHASMS_SENDER_INVALID'),
  ('alfasms', 'reasons', 'ALPHASMS_VIBER_SENDER_INVALID'),
  ('alfasms', 'reasons', 'ALPHASMS_LOW_BALANCE'),
  ('alfasms', 'reasons', 'ALPHASMS_PHONE_REJECTED'),
  ('alfasms', 'reasons', 'ALPHASMS_ERROR'),
  ('ga', 'errors', 'GA_MEASUREMENT_ID_INVALID'),
  ('ga', 'errors', 'GA_NAME_INVALID'),
  ('ga', 'errors', 'GA_NAME_TOO_LONG'),
  ('ga', 'errors', 'GA_NAME_RESERVED'),
  ('ga', 'errors', 'GA_PARAM_DUPLICATE'),
  ('ga', 'errors', 'GA_CLIENT_ID_MISSING'),
  ('ga', 'errors', 'GA_USER_ID_TOO_LONG'),
  ('ga', 'errors', 'GA_TOO_MANY_EVENTS'),
  ('ga', 'errors', 'GA_TOO_MANY_PARAMS'),
  ('ga', 'errors', 'GA_VALUE_TOO_LONG'),
  ('ga', 'errors', 'GA_BODY_TOO_LARGE'),
  ('ga', 'reasons', 'GA_VALIDATION_FAILED'),
  ('ga', 'reasons', 'GA_DEBUG_UNEXPECTED'),
  ('horoshop', 'errors', 'HOROSHOP_DOMAIN_INVALID'),
  ('horoshop', 'errors', 'HOROSHOP_AUTH_FAILED'),
  ('horoshop', 'errors', 'HOROSHOP_NOT_A_SHOP'),
  ('horoshop', 'errors', 'HOROSHOP_TOKEN_EXPIRED'),
  ('horoshop', 'errors', 'HOROSHOP_NO_ORDERS'),
  ('horoshop', 'errors', 'HOROSHOP_UNAVAILABLE'),
  ('horoshop', 'errors', 'HOROSHOP_REFUSED'),
  ('telegram', 'errors', 'TELEGRAM_TOKEN_INVALID'),
  ('telegram', 'errors', 'TELEGRAM_PLATFORM_BOT_UNAVAILABLE'),
  ('telegram', 'errors', 'TELEGRAM_UNAVAILABLE'),
  ('telegram', 'errors', 'TELEGRAM_COLLECTION_MISMATCH'),
  ('telegram', 'reasons', 'TELEGRAM_NO_ASSIGNEE'),
  ('telegram', 'reasons', 'TELEGRAM_NOT_LINKED'),
  ('telegram', 'reasons', 'TELEGRAM_BLOCKED'),
  ('telegram', 'reasons', 'TELEGRAM_CHAT_NOT_FOUND'),
  ('telegram', 'reasons', 'TELEGRAM_RATE_LIMITED'),
  ('telegram', 'reasons', 'TELEGRAM_TOKEN_INVALID'),
  ('telegram', 'reasons', 'TELEGRAM_PLATFORM_BOT_UNAVAILABLE'),
  ('uspacy', 'errors', 'USPACY_PORTAL_INVALID'),
  ('uspacy', 'errors', 'USPACY_WEBHOOK_URL_INVALID'),
  ('uspacy', 'errors', 'USPACY_SIGN_IN_FAILED'),
  ('uspacy', 'errors', 'USPACY_WEBHOOK_REFUSED'),
  ('uspacy', 'errors', 'USPACY_FUNNEL_NOT_FOUND'),
  ('uspacy', 'errors', 'USPACY_STAGE_NOT_FOUND'),
  ('uspacy', 'errors', 'USPACY_UNAVAILABLE'),
  ('uspacy', 'reasons', 'USPACY_REFRESH_FAILED'),
  ('uspacy', 'reasons', 'USPACY_VALIDATION'),
  ('uspacy', 'reasons', 'USPACY_REFUSED')
) AS m(slug, grp, code)
WHERE t."namespace" = (CASE m.grp WHEN 'errors' THEN 'errors' ELSE 'integrations' END)
  AND t."key" = (CASE m.grp WHEN 'errors' THEN m.code ELSE 'reasons.' || m.code END)
  AND NOT EXISTS (
    SELECT 1 FROM "translations" AS o
    WHERE o."locale" = t."locale" AND o."namespace" = 'connectors' AND o."key" = m.slug || '.' || m.grp || '.' || m.code
  );
