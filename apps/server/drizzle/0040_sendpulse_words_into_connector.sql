-- The operator's own words for SendPulse's connection form follow it into its folder (issue 29): the
-- widget's admin.<word> becomes connectors:sendpulse.connection.<word>, and the catalogue's description
-- integrations:catalogue.descriptions.sendpulse connectors:sendpulse.catalogue.description. A word the
-- operator already saved under the new key stays; the old one is then left unread.
UPDATE "translations" AS t
SET "namespace" = 'connectors', "key" = 'sendpulse.' || m.new_key, "updated_at" = now()
FROM (VALUES
  ('widget', 'admin.connectionTitle', 'connection.title'),
  ('widget', 'admin.connectionText', 'connection.text'),
  ('widget', 'admin.clientId', 'connection.clientId'),
  ('widget', 'admin.clientSecret', 'connection.clientSecret'),
  ('widget', 'admin.channel', 'connection.channel'),
  ('widget', 'admin.botId', 'connection.botId'),
  ('widget', 'admin.botIdHint', 'connection.botIdHint'),
  ('widget', 'admin.matchVariable', 'connection.matchVariable'),
  ('widget', 'admin.connect', 'connection.connect'),
  ('widget', 'admin.save', 'connection.save'),
  ('integrations', 'catalogue.descriptions.sendpulse', 'catalogue.description')
) AS m(old_namespace, old_key, new_key)
WHERE t."namespace" = m.old_namespace
  AND t."key" = m.old_key
  AND NOT EXISTS (
    SELECT 1 FROM "translations" AS o
    WHERE o."locale" = t."locale" AND o."namespace" = 'connectors' AND o."key" = 'sendpulse.' || m.new_key
  );
