import { DeleteOutlined, EditOutlined, HolderOutlined } from '@ant-design/icons';
import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { Module } from '@leadrelay/shared';
import { Button, Popconfirm, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

interface Props {
  modules: Module[];
  onSort: (ordered: Module[]) => void;
  onEdit: (module: Module) => void;
  onDelete: (module: Module) => void;
}

function Row({
  module,
  index,
  onEdit,
  onDelete,
}: { module: Module; index: number } & Pick<Props, 'onEdit' | 'onDelete'>) {
  const { t } = useTranslation('catalogue');
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: module._id,
  });
  return (
    <li
      ref={setNodeRef}
      className={`lr-module-row${isDragging ? ' lr-module-row-dragging' : ''}`}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      data-testid="module-row"
    >
      <button
        type="button"
        ref={setActivatorNodeRef}
        className="lr-module-handle"
        aria-label={t('modules.drag', { name: module.name })}
        {...attributes}
        {...listeners}
      >
        <HolderOutlined aria-hidden />
      </button>
      <span className="lr-module-order">{index + 1}</span>
      <span className="lr-module-name">
        {module.name}
        {module.slug && (
          <Typography.Text code className="lr-module-slug">
            {module.slug}
          </Typography.Text>
        )}
      </span>
      <Space>
        <Button
          size="small"
          icon={<EditOutlined aria-hidden />}
          aria-label={t('edit')}
          onClick={() => onEdit(module)}
        />
        <Popconfirm
          title={t('modules.deleteConfirm', { name: module.name })}
          okText={t('delete')}
          cancelText={t('cancel')}
          onConfirm={() => onDelete(module)}
        >
          <Button size="small" danger icon={<DeleteOutlined aria-hidden />} aria-label={t('delete')} />
        </Popconfirm>
      </Space>
    </li>
  );
}

/** A type's modules in their order; dragging a row (or its handle with the keyboard) reorders them. */
export function SortableModules({ modules, onSort, onEdit, onDelete }: Props) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = modules.findIndex((m) => m._id === active.id);
    const to = modules.findIndex((m) => m._id === over.id);
    if (from >= 0 && to >= 0) onSort(arrayMove(modules, from, to));
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <SortableContext items={modules.map((m) => m._id)} strategy={verticalListSortingStrategy}>
        <ol className="lr-module-list">
          {modules.map((m, i) => (
            <Row key={m._id} module={m} index={i} onEdit={onEdit} onDelete={onDelete} />
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}
