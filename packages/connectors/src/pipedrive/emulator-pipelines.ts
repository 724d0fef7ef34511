// Pipelines and stages in the Pipedrive emulator (v2), and the check a deal's pipeline and stage pass.
import { type Api, bad, pageV2, q } from './emulator-api';
import { PIPEDRIVE_SEED } from './emulator-state';

/** The deal's pipeline and stage: the first stage when none is given; a stage must be in the pipeline. */
export const checkPipelineStage = (pipelineId: unknown, stageId: unknown) => {
  const pipeline =
    pipelineId === undefined ? undefined : PIPEDRIVE_SEED.pipelines.find((p) => p.id === Number(pipelineId));
  if (pipelineId !== undefined && !pipeline) throw bad(`Pipeline ${String(pipelineId)} not found`);
  if (stageId === undefined)
    return { pipeline_id: pipeline?.id ?? 1, stage_id: (pipeline ?? PIPEDRIVE_SEED.pipelines[0]).stages[0].id };
  const owner = PIPEDRIVE_SEED.pipelines.find((p) => p.stages.some((s) => s.id === Number(stageId)));
  if (!owner) throw bad(`Stage ${String(stageId)} not found`);
  if (pipeline && owner.id !== pipeline.id) throw bad('Stage does not belong to the pipeline');
  return { pipeline_id: owner.id, stage_id: Number(stageId) };
};

export function registerPipelineRoutes(api: Api): void {
  const { v2 } = api;
  v2('GET', '/pipelines', async (req) =>
    pageV2(
      PIPEDRIVE_SEED.pipelines.map((p, i) => ({ id: p.id, name: p.name, order_nr: i + 1, is_deleted: false })),
      req,
    ),
  );
  v2('GET', '/stages', async (req) => {
    const pid = q(req).pipeline_id;
    const stages = PIPEDRIVE_SEED.pipelines.flatMap((p) =>
      p.stages.map((s, i) => ({ id: s.id, name: s.name, order_nr: i + 1, pipeline_id: p.id, is_deleted: false })),
    );
    return pageV2(pid ? stages.filter((s) => s.pipeline_id === Number(pid)) : stages, req);
  });
}
