// The field kinds filled by a connector's loaders: a choice of its answer's options, and a pipeline
// with its stages. The form card reads the loaders first (lists-context) and draws these once they answer.
import type { ListSelectField, Pipeline, PipelineStageField } from '@leadrelay/connectors/manifest';
import { Form, Select } from 'antd';
import { createContext, useContext } from 'react';
import { ruleOf } from './field-values';
import type { Say } from './words';

/** The answers of the loaders a card reads, by list name. */
export const ListsContext = createContext<ReadonlyMap<string, unknown>>(new Map());

/** A select of a loader's options; its value and onChange come from the Form.Item around it. */
export function ListSelect({
  field,
  say,
  ...control
}: {
  field: ListSelectField<string>;
  say: Say;
  value?: string | number;
  onChange?: (value: string | number | undefined) => void;
  id?: string;
}) {
  const options = field.read(useContext(ListsContext).get(field.list)).map((o) => ({ ...o }));
  return (
    <Select
      {...control}
      allowClear={field.clearable}
      showSearch={field.search ? { optionFilterProp: 'label' } : undefined}
      placeholder={field.placeholder ? say(field.placeholder) : undefined}
      options={options}
    />
  );
}

/** The list a pipeline picker reads: its own, or the one another field's value chooses. */
function usePipelineList(field: PipelineStageField<string>): string | undefined {
  const form = Form.useFormInstance();
  const by = typeof field.list === 'string' ? undefined : field.list;
  const watched = Form.useWatch<unknown>(by ? by.field : field.name, form);
  if (!by) return field.list as string;
  const value = watched ?? form.getFieldValue(by.field);
  return by.lists.find((l) => l.is === value)?.list;
}

/**
 * What a pipeline picker offers: the stages of the chosen pipeline, or, while none is chosen, of the
 * main one (where a lead goes then), whose pipeline a stage picked then chooses too; none without either.
 */
export function stageChoice(pipelines: readonly Pipeline[], pipelineId: unknown) {
  const main = pipelines.find((p) => p.main);
  const chosen = pipelines.find((p) => p.id === pipelineId);
  const of = chosen ?? (pipelineId == null || pipelineId === '' ? main : undefined);
  return { main, stagesOf: of, stages: of?.stages ?? [] };
}

/**
 * Pipeline, then a stage of it; a new pipeline empties the stage. While no pipeline is chosen, it says
 * where a lead goes then, and offers the main pipeline's stages when there is one.
 */
export function PipelineStage({ field, say, label }: { field: PipelineStageField<string>; say: Say; label?: string }) {
  const form = Form.useFormInstance();
  const list = usePipelineList(field);
  const pipelines = field.read(useContext(ListsContext).get(list ?? ''));
  const pipelineId = Form.useWatch<number | string | undefined>(field.name, form) ?? form.getFieldValue(field.name);
  const { main, stagesOf, stages } = stageChoice(pipelines, pipelineId);
  const unset = pipelineId == null || pipelineId === '';
  const { stage } = field;
  const unsetWord = main && field.unset.main ? say(field.unset.main, { name: main.name }) : say(field.unset.otherwise);
  return (
    <div className="lr-crm-pair">
      <Form.Item
        name={field.name}
        label={label}
        className="lr-grow"
        rules={[ruleOf(field, say)]}
        extra={unset ? <span data-testid="pipeline-unset">{unsetWord}</span> : undefined}
      >
        <Select
          allowClear
          placeholder={
            main && field.placeholder.main
              ? say(field.placeholder.main, { name: main.name })
              : say(field.placeholder.otherwise)
          }
          options={pipelines.map((p) => ({ value: p.id, label: p.name }))}
          onChange={() => form.setFieldValue(stage.name, undefined)}
        />
      </Form.Item>
      <Form.Item
        name={stage.name}
        label={say(stage.label)}
        className="lr-grow"
        extra={stagesOf ? undefined : say(stage.needsPipeline)}
      >
        <Select
          allowClear
          disabled={!stagesOf}
          placeholder={say(stage.placeholder)}
          options={stages.map((st) => ({ value: st.id, label: st.name }))}
          // A stage of the main pipeline picked while none is chosen chooses that pipeline: what is saved is what is shown.
          onChange={(value) => {
            if (value != null && unset && stagesOf) form.setFieldValue(field.name, stagesOf.id);
          }}
        />
      </Form.Item>
    </div>
  );
}
