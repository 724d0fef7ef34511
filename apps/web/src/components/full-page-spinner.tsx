import { Spin } from 'antd';

export function FullPageSpinner({ inline = false }: { inline?: boolean }) {
  return (
    <div className={inline ? 'lr-spinner-inline' : 'lr-center'} role="status" aria-busy="true">
      <Spin size="large" />
    </div>
  );
}
