// The connectors' configuration keys (<SLUG>_CLIENT_ID …), read by the names each definition declares
// in `config`: env.ts reads them from the environment (it stays the only reader of process.env), the
// app keeps them as config.crm[slug][field] (<SLUG>_CLIENT_ID → crm.<slug>.clientId), and the generic
// connect flow and runtime read them back by name. No per-connector code.
import { type ConfigKey, type ConnectorConfig, type ConnectorDefinition, connectors } from '@leadrelay/connectors';
import { z } from 'zod';

/** One connector's values, by field (clientId, oauthUrl, hosts …). */
export type ConnectorConfigValues = Record<string, string | string[] | undefined>;

/** Where a key lives under its connector: the key without the `SLUG_` prefix, camel-cased. */
export function configField(slug: string, key: string): string {
  const prefix = `${slug.toUpperCase()}_`;
  const rest = key.startsWith(prefix) ? key.slice(prefix.length) : key;
  return rest.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export const hostList = (v: string) =>
  v
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);

const ZUrl = z.url();

/** A key's value from its text (env or default): undefined when blank; a problem when not a URL where one is due. */
export function parseConfigValue(
  spec: ConfigKey,
  text: string | undefined,
): { value: string | string[] | undefined } | { problem: string } {
  const raw = text?.trim() ? text : spec.default;
  if (raw === undefined) return { value: spec.type === 'hosts' ? [] : undefined };
  if (spec.type === 'hosts') return { value: hostList(raw) };
  if (spec.type === 'url') {
    const parsed = ZUrl.safeParse(raw);
    if (!parsed.success) return { problem: parsed.error.issues[0]?.message ?? 'Invalid URL' };
    return { value: raw.replace(/\/+$/, '') };
  }
  return { value: raw };
}

type AnyConnector = ConnectorDefinition<unknown, unknown>;
const all = () => [...connectors.values()];

/**
 * Every connector's keys read from `source` (env.ts passes the environment; no source: the defaults).
 * Problems are `KEY: message`, for env.ts's startup error.
 */
export function readConnectorConfig(
  source: Record<string, string | undefined> = {},
  list: AnyConnector[] = all(),
): { crm: Record<string, ConnectorConfigValues>; problems: string[] } {
  const crm: Record<string, ConnectorConfigValues> = {};
  const problems: string[] = [];
  for (const connector of list) {
    for (const [key, spec] of Object.entries(connector.config ?? {})) {
      const read = parseConfigValue(spec, source[key]);
      if ('problem' in read) {
        problems.push(`${key}: ${read.problem}`);
        continue;
      }
      const values = crm[connector.slug] ?? {};
      values[configField(connector.slug, key)] = read.value;
      crm[connector.slug] = values; // own-keys: a slug the connectors declare
    }
  }
  return { crm, problems };
}

/** A connector's configuration by the names it declares, read from the app's config at call time. */
export function connectorConfig(
  crm: Record<string, ConnectorConfigValues | undefined>,
  connector: Pick<AnyConnector, 'slug' | 'config'>,
): ConnectorConfig {
  const values = crm[connector.slug] ?? {};
  return Object.fromEntries(
    Object.keys(connector.config ?? {}).map((key) => [key, values[configField(connector.slug, key)]]),
  );
}
