// The MCP server of one caller (issue 34 part 2): the tools, described in the account's language,
// each answering structured JSON (structuredContent, and the same as text for clients that read only
// text). A refusal is a tool error (isError) carrying the API's error key: `{ error: { code,
// statusCode, message } }`, its text `CODE: words`. Stateless: one is made per request.

import { SPEED_TO_LEAD_MAX_DAYS, statusOf } from '@leadrelay/shared';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { type McpContext, McpRefusal } from './mcp-context';
import { findLeads, guardianAlerts, integrationsView, planAndUsage, speedReport } from './mcp-read.service';
import { type McpErrorCode, type ToolName, wordsOf } from './mcp-words';
import { resendDelivery, sendTestLead } from './mcp-write.service';

// Arguments that do not fit a tool's schema are refused by the SDK before the tool runs, as a tool
// error whose text names the API's keys: these schemas' messages are the keys.
const typeError = (issue: { input?: unknown; code?: string }) =>
  issue.input === undefined ? 'REQUIRED' : issue.code === 'unrecognized_keys' ? 'VALIDATION_ERROR' : 'INVALID_TYPE';
const text = (max: number) => z.string({ error: typeError }).max(max, `MAX_LENGTH_${max}`);
const whole = (min: number, max: number) =>
  z
    .number({ error: typeError })
    .int({ error: 'VALIDATION_ERROR' })
    .min(min, { error: 'VALIDATION_ERROR' })
    .max(max, { error: 'VALIDATION_ERROR' });

export const MCP_SERVER_INFO = { name: 'leadrelay', version: '1.0.0' } as const;

/** The keys a tool may answer with; anything else is an INTERNAL_ERROR (logged, no detail sent). */
const TOOL_ERRORS = new Set<string>([
  'API_KEY_SCOPE',
  'HOOK_NOT_FOUND',
  'INTEGRATION_NOT_FOUND',
  'OPERATION_NOT_SUPPORTED',
  'VALIDATION_ERROR',
] satisfies McpErrorCode[]);

function ok(structured: Record<string, unknown>, summary: string): CallToolResult {
  return {
    structuredContent: structured,
    content: [{ type: 'text', text: `${summary}\n\n${JSON.stringify(structured, null, 2)}` }],
  };
}

function refusal(ctx: McpContext, error: unknown): CallToolResult {
  const words = wordsOf(ctx.locale);
  const known = error instanceof AppError && TOOL_ERRORS.has(error.code);
  if (!known) ctx.deps.log.error({ err: error }, 'mcp tool failed');
  const code = (known ? error.code : 'INTERNAL_ERROR') as McpErrorCode;
  const message = error instanceof McpRefusal ? error.message : words.errors[code];
  return {
    isError: true,
    structuredContent: { error: { code, statusCode: statusOf(code), message } },
    content: [{ type: 'text', text: `${code}: ${message}` }],
  };
}

export function createMcpServer(ctx: McpContext): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, { capabilities: { tools: {} } });
  const words = wordsOf(ctx.locale);
  const run = async (work: () => Promise<CallToolResult>) => {
    try {
      return await work();
    } catch (error) {
      return refusal(ctx, error);
    }
  };
  const readOnly = { readOnlyHint: true, openWorldHint: false } as const;
  const describe = (name: ToolName) => ({ title: name, description: words.tools[name] });

  server.registerTool('list_integrations', { ...describe('list_integrations'), annotations: readOnly }, () =>
    run(async () => {
      const view = await integrationsView(ctx);
      return ok(view, words.summary.integrations(view.total));
    }),
  );

  server.registerTool(
    'find_leads',
    {
      ...describe('find_leads'),
      inputSchema: {
        query: text(200).trim().min(1, 'REQUIRED').describe(words.inputs.query),
        limit: whole(1, 20).default(10).describe(words.inputs.limit),
      },
      annotations: readOnly,
    },
    ({ query, limit }) =>
      run(async () => {
        const view = await findLeads(ctx, query, limit);
        return ok(view, words.summary.leads(view.leads.length));
      }),
  );

  server.registerTool(
    'resend_delivery',
    {
      ...describe('resend_delivery'),
      inputSchema: { deliveryId: text(100).describe(words.inputs.deliveryId) },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    ({ deliveryId }) =>
      run(async () => {
        const view = await resendDelivery(ctx, deliveryId);
        return ok(view, words.summary.resent);
      }),
  );

  server.registerTool(
    'send_test_lead',
    {
      ...describe('send_test_lead'),
      inputSchema: {
        integrationId: text(100).describe(words.inputs.integrationId),
        fields: z
          .object(
            {
              name: text(200).optional(),
              phone: text(50).optional(),
              email: text(200).optional(),
              comment: text(2000).optional(),
            },
            { error: typeError },
          )
          .strict()
          .optional()
          .describe(words.inputs.fields),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    ({ integrationId, fields }) =>
      run(async () => {
        const view = await sendTestLead(ctx, integrationId, fields);
        return ok(view, words.summary.testLead(view.status.words));
      }),
  );

  server.registerTool(
    'speed_report',
    {
      ...describe('speed_report'),
      inputSchema: {
        days: whole(1, SPEED_TO_LEAD_MAX_DAYS).default(30).describe(words.inputs.days),
        integrationId: text(100).optional().describe(words.inputs.reportIntegrationId),
      },
      annotations: readOnly,
    },
    ({ days, integrationId }) =>
      run(async () => {
        const report = await speedReport(ctx, { days, ...(integrationId ? { integrationId } : {}) });
        const { leads, reacted, medianMs } = report.total;
        const median = medianMs === null ? null : Math.round(medianMs / 6_000) / 10;
        return ok({ ...report }, words.summary.speed(leads, reacted, median));
      }),
  );

  server.registerTool(
    'guardian_alerts',
    {
      ...describe('guardian_alerts'),
      inputSchema: { openOnly: z.boolean({ error: typeError }).default(false).describe(words.inputs.openOnly) },
      annotations: readOnly,
    },
    ({ openOnly }) =>
      run(async () => {
        const view = await guardianAlerts(ctx, openOnly);
        return ok(view, words.summary.alerts(view.open, view.alerts.length));
      }),
  );

  server.registerTool('plan_and_usage', { ...describe('plan_and_usage'), annotations: readOnly }, () =>
    run(async () => {
      const view = await planAndUsage(ctx);
      return ok(view, words.summary.plan(view.plan.title, view.usage.leadsThisMonth, view.limits.leadsPerMonth));
    }),
  );

  return server;
}
