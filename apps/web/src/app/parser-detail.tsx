import type { Integration } from '@leadrelay/shared';
import { Col, Row } from 'antd';
import { DestinationsCard } from '../features/integrations/components/destinations-card';
import { DistributionCard } from '../features/integrations/components/distribution-card';
import { ParserPage } from '../features/parsers/pages/parser-page';

// A parser is a source integration: its destinations and distribution are the integrations feature's
// cards, handed over here because one feature never imports another.
function ParserDestinations({ integration }: { integration: Integration }) {
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={14}>
        <DestinationsCard integration={integration} />
      </Col>
      <Col xs={24} lg={10}>
        <DistributionCard integration={integration} />
      </Col>
    </Row>
  );
}

const PARTS = { Destinations: ParserDestinations };

/** /admin/parsers/:id. */
export function ParserDetailPage() {
  return <ParserPage parts={PARTS} />;
}
