// SendPulse as a destination (CRM contact and deal per lead) and as the chatbot the CRM widget
// reads and writes through: the credentials and the settings an integration of that type stores, and
// a bot as its loader answers. The server validates with these and the web builds its form from them
// (the manifest imports them).
import { requiredText } from '@leadrelay/shared';
import { z } from 'zod';

export const SENDPULSE_CHANNELS = ['telegram', 'whatsapp', 'instagram', 'messenger', 'viber', 'livechat'] as const;
export type SendpulseChannel = (typeof SENDPULSE_CHANNELS)[number];

/** A REST API app's ID and Secret (SendPulse: Settings → API). */
export const ZSendpulseAuth = z.object({
  clientId: requiredText().trim().max(200),
  clientSecret: requiredText().trim().max(200),
});
export type SendpulseAuth = z.infer<typeof ZSendpulseAuth>;

export const ZSendpulseSettings = z.object({
  /** The chatbot channel the widget searches and writes in. */
  channel: z.enum(SENDPULSE_CHANNELS).default('telegram'),
  /** The bot; unset: every bot of the channel is searched. */
  botId: z.string().trim().min(1).max(100).optional(),
  /** The bot variable holding the contact's phone. */
  matchVariable: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_.-]{1,100}$/, { error: 'VALIDATION_ERROR' })
    .default('phone'),
  /** Set both to make a CRM deal for every lead (else only the contact). */
  pipelineId: z.number().int().positive().optional(),
  stepId: z.number().int().positive().optional(),
});
export type SendpulseSettings = z.infer<typeof ZSendpulseSettings>;

export const ZSendpulseBot = z.object({ id: z.string(), name: z.string(), channel: z.string() });
export type SendpulseBot = z.infer<typeof ZSendpulseBot>;

/** A CRM pipeline and its steps, as the pipelines loader answers (a deal goes into one step). */
export const ZSendpulsePipeline = z.object({
  id: z.number(),
  name: z.string(),
  steps: z.array(z.object({ id: z.number(), name: z.string() })),
});
