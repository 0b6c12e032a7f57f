import Enzyme from 'enzyme';
import Adapter from '@wojtekmaj/enzyme-adapter-react-17';
// Adds the custom jest-dom matchers (toBeInTheDocument, toHaveTextContent, ...)
// to every test file, so RTL tests do not need to import it themselves.
import '@testing-library/jest-dom';

Enzyme.configure({ adapter: new Adapter() });
