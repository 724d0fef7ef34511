-- The operator's own words for Facebook Lead Ads' codes follow them into its folder (issue 29), as 0038
-- did for the other connectors': errors:<CODE> becomes connectors:facebook.errors.<CODE>,
-- integrations:reasons.<CODE> connectors:facebook.reasons.<CODE>. A word the operator already saved under
-- the new key stays; the old one is then left unread. FACEBOOK_EMAIL_REQUIRED (sign-in's) stays in errors.
UPDATE "translations" AS t
SET "namespace" = 'connectors', "key" = m.slug || '.' || m.grp || '.' || m.code, "updated_at" = now()
FROM (VALUES
  ('facebook', 'errors', 'FB_CONNECTION_NOT_FOUND'),
  ('facebook', 'errors', 'FB_PAGE_NOT_FOUND'),
  ('facebook', 'reasons', 'FACEBOOK_TOKEN')
) AS m(slug, grp, code)
WHERE t."namespace" = (CASE m.grp WHEN 'errors' THEN 'errors' ELSE 'integrations' END)
  AND t."key" = (CASE m.grp WHEN 'errors' THEN m.code ELSE 'reasons.' || m.code END)
  AND NOT EXISTS (
    SELECT 1 FROM "translations" AS o
    WHERE o."locale" = t."locale" AND o."namespace" = 'connectors' AND o."key" = m.slug || '.' || m.grp || '.' || m.code
  );
