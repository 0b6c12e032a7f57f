import { Component, ReactNode } from 'react';
import { AccordionItem } from './AccordionItem';
import './Accordion.css';

export interface AccordionSection {
  id: string;
  title: string;
  content: ReactNode;
}

export interface AccordionProps {
  sections: AccordionSection[];
  allowMultiple?: boolean;
  defaultOpenIds?: string[];
}

export interface AccordionState {
  openIds: string[];
}

export class Accordion extends Component<AccordionProps, AccordionState> {
  state: AccordionState = {
    openIds: this.props.defaultOpenIds ?? [],
  };

  isOpen(id: string): boolean {
    return this.state.openIds.includes(id);
  }

  toggle = (id: string) => {
    this.setState(({ openIds }) => {
      if (openIds.includes(id)) {
        return { openIds: openIds.filter((openId) => openId !== id) };
      }
      return { openIds: this.props.allowMultiple ? [...openIds, id] : [id] };
    });
  };

  expandAll = () => {
    this.setState({ openIds: this.props.sections.map((section) => section.id) });
  };

  collapseAll = () => {
    this.setState({ openIds: [] });
  };

  render() {
    const { sections, allowMultiple = false } = this.props;

    return (
      <div className="accordion">
        {allowMultiple && (
          <div className="accordion__toolbar">
            <button type="button" className="accordion__expand-all" onClick={this.expandAll}>
              Expand all
            </button>
            <button type="button" className="accordion__collapse-all" onClick={this.collapseAll}>
              Collapse all
            </button>
          </div>
        )}
        {sections.map((section) => (
          <AccordionItem
            key={section.id}
            id={section.id}
            title={section.title}
            isOpen={this.isOpen(section.id)}
            onToggle={this.toggle}
          >
            {section.content}
          </AccordionItem>
        ))}
      </div>
    );
  }
}

export default Accordion;
