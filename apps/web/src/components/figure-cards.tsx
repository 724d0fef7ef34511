import { Typography } from 'antd';
import type { ReactNode } from 'react';
import './figure-cards.css';

export interface FigureCard {
  key: string;
  /** The card's first line: what the figures are of (a day and a source, a manager). */
  head: ReactNode;
  /** Label and value, two to a line. */
  figures: readonly (readonly [label: string, value: ReactNode])[];
}

/**
 * A report's table as a phone shows it: a card per row with every figure in sight, where a table's
 * columns would be cut at the screen's edge or squeezed until their titles break mid-word.
 */
export function FigureCards({ cards, empty, busy }: { cards: FigureCard[]; empty: string; busy?: boolean }) {
  return (
    <ul className="lr-figure-cards" aria-busy={busy}>
      {cards.map((card) => (
        <li key={card.key} className="lr-figure-card">
          <div className="lr-figure-card-head">{card.head}</div>
          <dl className="lr-figure-card-figures">
            {card.figures.map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </li>
      ))}
      {!busy && cards.length === 0 && <Typography.Text type="secondary">{empty}</Typography.Text>}
    </ul>
  );
}
