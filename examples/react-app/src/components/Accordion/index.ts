export { Accordion, default } from './Accordion';
export { AccordionItem } from './AccordionItem';
export type { AccordionSection } from './Accordion';
