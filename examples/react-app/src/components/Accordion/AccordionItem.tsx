import type { ReactNode } from 'react';

export interface AccordionItemProps {
  id: string;
  title: string;
  isOpen: boolean;
  onToggle: (id: string) => void;
  children?: ReactNode;
}

export function AccordionItem({ id, title, isOpen, onToggle, children }: AccordionItemProps) {
  const headerId = `${id}-header`;
  const panelId = `${id}-panel`;

  return (
    <div className={isOpen ? 'accordion-item accordion-item--open' : 'accordion-item'}>
      <h3 className="accordion-item__heading">
        <button
          type="button"
          id={headerId}
          className="accordion-item__header"
          aria-expanded={isOpen}
          aria-controls={panelId}
          onClick={() => onToggle(id)}
        >
          {title}
        </button>
      </h3>
      {isOpen && (
        <div id={panelId} role="region" aria-labelledby={headerId} className="accordion-item__panel">
          {children}
        </div>
      )}
    </div>
  );
}
