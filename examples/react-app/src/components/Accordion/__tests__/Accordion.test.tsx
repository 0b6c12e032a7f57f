import { mount, shallow } from 'enzyme';
import { Accordion, AccordionSection } from '../Accordion';
import { AccordionItem } from '../AccordionItem';

const sections: AccordionSection[] = [
  { id: 'shipping', title: 'Shipping', content: <p>We ship worldwide within 5 days.</p> },
  { id: 'returns', title: 'Returns', content: <p>Returns are free for 30 days.</p> },
  { id: 'warranty', title: 'Warranty', content: <p>Two years, no questions asked.</p> },
];

describe('Accordion', () => {
  describe('shallow rendering', () => {
    it('renders an AccordionItem per section', () => {
      const wrapper = shallow(<Accordion sections={sections} />);

      expect(wrapper.find(AccordionItem)).toHaveLength(3);
      expect(wrapper.find(AccordionItem).first().prop('title')).toBe('Shipping');
      expect(wrapper.find(AccordionItem).last().prop('title')).toBe('Warranty');
      expect(wrapper).toMatchSnapshot();
    });

    it('opens the sections passed in defaultOpenIds', () => {
      const wrapper = shallow<Accordion>(<Accordion sections={sections} defaultOpenIds={['returns']} />);

      expect(wrapper.state('openIds')).toEqual(['returns']);
      expect(wrapper.find(AccordionItem).at(1).prop('isOpen')).toBe(true);
      expect(wrapper.find(AccordionItem).at(0).prop('isOpen')).toBe(false);
    });

    it('only keeps one section open unless allowMultiple is set', () => {
      const wrapper = shallow<Accordion>(<Accordion sections={sections} />);

      wrapper.instance().toggle('shipping');
      wrapper.instance().toggle('returns');
      expect(wrapper.state('openIds')).toEqual(['returns']);

      wrapper.setProps({ allowMultiple: true });
      wrapper.find(AccordionItem).at(2).props().onToggle('warranty');
      expect(wrapper.state('openIds')).toEqual(['returns', 'warranty']);
    });

    it('expands and collapses everything from the toolbar', () => {
      const wrapper = shallow<Accordion>(<Accordion sections={sections} allowMultiple />);

      wrapper.find('.accordion__expand-all').simulate('click');
      expect(wrapper.state().openIds).toHaveLength(3);

      wrapper.find('.accordion__collapse-all').simulate('click');
      expect(wrapper.state().openIds).toHaveLength(0);
    });

    it('does not render the toolbar for single-open accordions', () => {
      const wrapper = shallow(<Accordion sections={sections} />);

      expect(wrapper.find('.accordion__toolbar').exists()).toBe(false);
    });
  });

  describe('full rendering', () => {
    it('shows the panel when a header is clicked and hides it again', () => {
      const wrapper = mount(<Accordion sections={sections} />);

      expect(wrapper.find('#shipping-panel').exists()).toBe(false);

      wrapper.find('button.accordion-item__header').first().simulate('click');
      expect(wrapper.find('#shipping-panel').text()).toBe('We ship worldwide within 5 days.');
      expect(wrapper.find('#shipping-header').prop('aria-expanded')).toBe(true);
      expect(wrapper.find('.accordion-item').first().hasClass('accordion-item--open')).toBe(true);

      wrapper.find('#shipping-header').simulate('click');
      expect(wrapper.find('#shipping-panel').exists()).toBe(false);
    });

    it('lets the instance toggle sections programmatically', () => {
      const wrapper = mount<Accordion>(<Accordion sections={sections} />);

      wrapper.instance().expandAll();
      wrapper.update();

      expect(wrapper.find('.accordion-item__panel')).toHaveLength(3);
      expect(wrapper.instance().isOpen('warranty')).toBe(true);
    });
  });
});
