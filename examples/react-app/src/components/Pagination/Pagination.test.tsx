import { shallow } from 'enzyme';
import { getPageItems, Pagination } from './Pagination';

describe('getPageItems', () => {
  it('lists every page when there are only a few', () => {
    expect(getPageItems(2, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('collapses long ranges around the current page', () => {
    expect(getPageItems(10, 20)).toEqual([1, 'ellipsis', 9, 10, 11, 'ellipsis', 20]);
    expect(getPageItems(2, 20)).toEqual([1, 2, 3, 'ellipsis', 20]);
  });
});

describe('<Pagination />', () => {
  it('matches the snapshot', () => {
    const wrapper = shallow(<Pagination page={3} totalPages={12} onPageChange={jest.fn()} />);
    expect(wrapper).toMatchSnapshot();
  });

  it('highlights the current page', () => {
    const wrapper = shallow(<Pagination page={2} totalPages={5} onPageChange={jest.fn()} />);
    const pages = wrapper.find('button.pagination__page');

    expect(pages).toHaveLength(5);
    expect(pages.at(1).hasClass('active')).toBe(true);
    expect(pages.at(1).prop('aria-current')).toBe('page');
    expect(pages.at(0).hasClass('active')).toBe(false);
  });

  it('reports the requested page', () => {
    const onPageChange = jest.fn();
    const wrapper = shallow(<Pagination page={2} totalPages={5} onPageChange={onPageChange} />);

    wrapper.find('.pagination__next').simulate('click');
    expect(onPageChange).toHaveBeenLastCalledWith(3);

    wrapper.find('.pagination__prev').simulate('click');
    expect(onPageChange).toHaveBeenLastCalledWith(1);

    wrapper.find('button.pagination__page').last().simulate('click');
    expect(onPageChange).toHaveBeenLastCalledWith(5);
  });

  it('updates when the page prop changes', () => {
    const wrapper = shallow(<Pagination page={1} totalPages={20} onPageChange={jest.fn()} />);
    expect(wrapper.find('.pagination__prev').prop('disabled')).toBe(true);
    expect(wrapper.find('.pagination__ellipsis')).toHaveLength(1);

    wrapper.setProps({ page: 10 });
    expect(wrapper.find('.pagination__prev').prop('disabled')).toBe(false);
    expect(wrapper.find('.pagination__ellipsis')).toHaveLength(2);
    expect(wrapper.find('.active').text()).toBe('10');

    wrapper.setProps({ page: 20 });
    expect(wrapper.find('.pagination__next').props().disabled).toBe(true);
  });

  it('renders nothing for a single page', () => {
    const wrapper = shallow(<Pagination page={1} totalPages={1} onPageChange={jest.fn()} />);

    expect(wrapper.isEmptyRender()).toBe(true);
    expect(wrapper.find('nav').exists()).toBe(false);
  });
});
