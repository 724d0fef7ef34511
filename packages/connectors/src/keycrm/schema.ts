// KeyCRM as a destination (issue 32): the API key an integration keeps, the pipeline, status and
// source a lead's card goes into, and the shape of the pipelines loader's answer. The server validates
// with these and the web builds its forms from them (the manifest imports them).
import { zMinText } from '@leadrelay/shared';
import { z } from 'zod';

/**
 * The API key from KeyCRM's settings (its help: "where to get an API key"), sent as `Authorization: Bearer <key>`.
 * Printable ASCII with no spaces: anything else cannot go into a header.
 */
export const ZKeycrmApiKey = zMinText(10)
  .trim()
  .max(200, { error: 'MAX_LENGTH_200' })
  .regex(/^[\x21-\x7e]+$/, { error: 'VALIDATION_ERROR' });

export const ZKeycrmAuth = z.object({ apiKey: ZKeycrmApiKey });
export type KeycrmAuth = z.infer<typeof ZKeycrmAuth>;

const zId = z.number().int().positive().max(2_147_483_647);

export const ZKeycrmSettings = z
  .object({
    /** The pipeline (воронка) a card goes into; unset: KeyCRM's first pipeline. */
    pipelineId: zId.optional(),
    /** The status within it; unset: where KeyCRM puts a new card (the pipeline's first status). */
    statusId: zId.optional(),
    /** KeyCRM's source (GET /order/source) the card is marked with. */
    sourceId: zId.optional(),
    /** The card's title; {name}, {phone}, {email}, {source} are filled in. Default "Лід: {name}". */
    title: z.string().trim().max(250, { error: 'MAX_LENGTH_250' }).optional(),
    /** The responsible manager when distribution assigned none (a KeyCRM user id). */
    managerId: zId.optional(),
  })
  // A status is one pipeline's: without the pipeline it could not be checked before a card is made.
  .superRefine((s, ctx) => {
    if (s.statusId !== undefined && s.pipelineId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['pipelineId'], message: 'REQUIRED' });
    }
  });
export type KeycrmSettings = z.infer<typeof ZKeycrmSettings>;

/** A pipeline and its statuses as the `pipelines` loader answers. */
export const ZKeycrmPipeline = z.object({
  id: z.number(),
  name: z.string(),
  stages: z.array(z.object({ id: z.number(), name: z.string() })),
});
export type KeycrmPipeline = z.infer<typeof ZKeycrmPipeline>;

/** A source as the `sources` loader answers. */
export const ZKeycrmSource = z.object({ id: z.number(), name: z.string() });
export type KeycrmSource = z.infer<typeof ZKeycrmSource>;
